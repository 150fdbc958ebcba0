import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id and logs one line when it is answered: method, route pattern,
/// status, duration, account id. The id is the client's `X-Request-Id` when it is a plausible
/// one (a proxy's, so its log and ours join), else the router's own; it is returned in the
/// response and carried by every line the request logs.
///
/// Nothing else of the request is logged: not the path (it holds ids and, for the misconduct
/// search, a place), not the query (bbox, `near`), not headers (tokens) and never the body.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// With JSON logs, the request line is encoded straight into the sink: through swift-log's
    /// metadata dictionary it cost 8 % of a cached tile's CPU, encoded directly about a fifth of
    /// that. Nil sends it through the logger (text for a terminal, and the tests' handlers).
    let jsonSink: LogSink?

    init(jsonSink: LogSink? = nil) {
        self.jsonSink = jsonSink
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        // The router's own id (a random prefix and a counter) unless the client sent a usable one.
        let id: String
        if let given = request.headers[.xRequestID].flatMap(Self.acceptable) {
            id = given
            context.logger[metadataKey: "hb.request.id"] = .string(given)
        } else {
            id = context.id
        }
        let start = ContinuousClock.now
        do {
            var response = try await next(request, context)
            response.headers[.xRequestID] = id
            // Logged when the handler answered: a streamed export's body is still being sent.
            log(request, context, id: id, status: response.status, since: start)
            return response
        } catch {
            // Errors that escaped the error middleware: the connection handler answers them.
            log(request, context, id: id, status: (error as? any HTTPResponseError)?.status ?? .internalServerError, since: start)
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, id: String, status: HTTPResponse.Status, since start: ContinuousClock.Instant) {
        // A 503 (draining, the database away) or 507 is the service protecting itself and has its
        // own warning; only an unexpected failure is an error.
        let level: Logger.Level = status == .internalServerError ? .error : (status.code >= 500 ? .warning : .info)
        guard context.logger.logLevel <= level else { return }
        let elapsed = ContinuousClock.now - start
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        let route = RequestMetricsMiddleware.route(context.endpointPath)
        if let jsonSink {
            var line = RequestLine(id: id, method: request.method.rawValue, route: route, status: status.code, micros: micros,
                                   account: context.note.account).json(level: level, label: context.logger.label)
            line.append(UInt8(ascii: "\n"))
            jsonSink.append(line, urgent: level >= .warning)
            return
        }
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue),
            "route": .string(route),
            "status": .stringConvertible(status.code),
            "duration_ms": .stringConvertible(LogDecimal(formatted: Self.milliseconds(micros))),
        ]
        if let account = context.note.account { metadata["account"] = .string(account) }
        context.logger.log(level: level, "request", metadata: metadata)
    }

    /// `3.26` for 3,260 µs, as the JSON line writes it.
    static func milliseconds(_ micros: Int64) -> String {
        var bytes: [UInt8] = []
        RequestLine.appendMilliseconds(micros, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Up to 128 characters of letters, digits and `-._:`; anything else is replaced, so a
    /// client cannot write arbitrary text into the log.
    static func acceptable(_ id: String) -> String? {
        guard (1...128).contains(id.utf8.count),
              id.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ":")) })
        else { return nil }
        return id
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-Id")!
}
