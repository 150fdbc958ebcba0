import Foundation
import Hummingbird
import Logging
import ReportVerification

/// The one error shape of the API: `{"error": {"code": "...", "message": "...", "field": "..."}}`.
struct APIError: Error, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var field: String?
    /// For conflicts: the resource's current status, so clients can show it without reloading.
    var current: String?
    /// For refusals in time: when the action becomes possible (ISO 8601).
    var nextAllowed: String?
    /// For invalid input: every problem, not just the first.
    var problems: [FieldProblem]?

    init(status: HTTPResponse.Status, code: String, message: String, field: String? = nil, current: String? = nil,
         nextAllowed: String? = nil, problems: [FieldProblem]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.current = current
        self.nextAllowed = nextAllowed
        self.problems = problems
    }

    static func notFound(_ message: String) -> APIError { APIError(status: .notFound, code: "not_found", message: message) }
    static func unavailable(_ message: String) -> APIError { APIError(status: .serviceUnavailable, code: "unavailable", message: message) }
    static func unauthorized(_ message: String) -> APIError { APIError(status: .unauthorized, code: "unauthorized", message: message) }
    static func invalid(_ message: String, field: String? = nil) -> APIError {
        APIError(status: .unprocessableContent, code: "invalid", message: message, field: field)
    }
    /// A query parameter that is malformed or out of range: `400 bad_parameter`.
    static func badParameter(_ message: String, field: String) -> APIError {
        APIError(status: .badRequest, code: "bad_parameter", message: message, field: field)
    }
    static func conflict(_ message: String) -> APIError { APIError(status: .conflict, code: "conflict", message: message) }

    /// 400 for the first query parameter a route does not declare: OGC API – Features requires
    /// it, and it turns a misspelt parameter into an error instead of a silently ignored one.
    static func refuseUnknownParameters(_ request: Request, allowed: Set<String>) throws {
        for (key, _) in request.uri.queryParameters where !allowed.contains(String(key)) {
            throw APIError(status: .badRequest, code: "unknown_parameter", message: "unknown query parameter \"\(key)\"", field: String(key))
        }
    }

    var response: Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String; let message: String; let field: String?; let current: String?; let nextAllowed: String?
                let problems: [FieldProblem]?
            }
            let error: Detail
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(Body(error: .init(code: code, message: message, field: field, current: current, nextAllowed: nextAllowed, problems: problems)))) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Maps every error to the JSON error shape. Unknown errors become a generic 500: their text may
/// carry library or database detail (even personal data) and is logged, never sent.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as DecodingError {
            return APIError(status: .badRequest, code: "bad_request", message: Self.describe(error)).response
        } catch let error as HTTPError {
            let code: String
            switch error.status {
            case .notFound: code = "not_found"
            case .methodNotAllowed: code = "method_not_allowed"
            case .contentTooLarge: code = "too_large"
            case .badRequest: code = "bad_request"
            default: code = error.status.code >= 500 ? "internal" : "error"
            }
            let message = error.body ?? (error.status == .notFound ? "no such resource: \(request.uri.path)" : error.status.reasonPhrase)
            return APIError(status: error.status, code: code, message: message).response
        } catch {
            context.logger.error("unhandled error", metadata: ["type": "\(type(of: error))"])
            return APIError(status: .internalServerError, code: "internal", message: "internal error").response
        }
    }

    /// A decoding failure in words, naming the member but never echoing the submitted value.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case .keyNotFound(let key, let ctx): return "required member \"\(path(ctx.codingPath + [key]))\" is missing"
        case .typeMismatch(_, let ctx), .valueNotFound(_, let ctx):
            return ctx.codingPath.isEmpty ? "the body is not the expected JSON object" : "member \"\(path(ctx.codingPath))\" has the wrong type"
        case .dataCorrupted(let ctx):
            return ctx.codingPath.isEmpty ? "the body is not valid JSON" : "member \"\(path(ctx.codingPath))\" is not valid"
        @unknown default: return "the body could not be read"
        }
    }
}
