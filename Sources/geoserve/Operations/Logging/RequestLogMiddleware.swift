import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id and logs one line when it is answered: method, route pattern,
/// status, duration, account id. The id is the client's `X-Request-Id` when it is a plausible
/// one (a proxy's, so its log and ours join), else a new one; it is returned in the response and
/// carried by every line the request logs.
///
/// Nothing else of the request is logged: not the path (it holds ids and, for the misconduct
/// search, a place), not the query (bbox, `near`), not headers (tokens) and never the body.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = request.headers[.xRequestID].flatMap(Self.acceptable) ?? Self.newID()
        var context = context
        context.logger[metadataKey: "hb.request.id"] = .string(id)
        let start = ContinuousClock.now
        do {
            var response = try await next(request, context)
            response.headers[.xRequestID] = id
            // Logged when the handler answered: a streamed export's body is still being sent.
            Self.log(request, context, status: response.status, since: start)
            return response
        } catch {
            // Errors that escaped the error middleware: the connection handler answers them.
            Self.log(request, context, status: (error as? any HTTPResponseError)?.status ?? .internalServerError, since: start)
            throw error
        }
    }

    private static func log(_ request: Request, _ context: Context, status: HTTPResponse.Status, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue),
            "route": .string(RequestMetricsMiddleware.route(context.endpointPath)),
            "status": .stringConvertible(status.code),
            "duration_ms": .string(String(format: "%.2f", ms)),
        ]
        if let account = context.note.account { metadata["account"] = .string(account) }
        // A 503 (draining, the database away) or 507 is the service protecting itself and has its
        // own warning; only an unexpected failure is an error.
        let level: Logger.Level = status == .internalServerError ? .error : (status.code >= 500 ? .warning : .info)
        context.logger.log(level: level, "request", metadata: metadata)
    }

    /// Up to 128 characters of letters, digits and `-._:`; anything else is replaced, so a
    /// client cannot write arbitrary text into the log.
    static func acceptable(_ id: String) -> String? {
        guard (1...128).contains(id.utf8.count),
              id.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ":")) })
        else { return nil }
        return id
    }

    static func newID() -> String {
        var bytes = SystemRandomNumberGenerator()
        let (a, b) = (bytes.next() as UInt64, bytes.next() as UInt32)
        return String(a, radix: 16).leftPadded(16) + String(b, radix: 16).leftPadded(8)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-Id")!
}
