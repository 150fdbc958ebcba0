import Foundation
import Hummingbird
import ReportVerification

/// The one error shape of the API: `{"error": {"code": "...", "message": "...", "field": "..."}}`.
struct APIError: HTTPResponseError, Sendable {
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
    /// For temporary refusals: seconds after which trying again makes sense (`Retry-After`).
    var retryAfter: Int?

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
    static func unavailable(_ message: String, retryAfter: Int = 5) -> APIError {
        var error = APIError(status: .serviceUnavailable, code: "unavailable", message: message)
        error.retryAfter = retryAfter
        return error
    }
    /// The disk is short of space: `507 insufficient_storage`, come back in a minute.
    static func insufficientStorage(_ message: String) -> APIError {
        var error = APIError(status: .init(code: 507, reasonPhrase: "Insufficient Storage"), code: "insufficient_storage", message: message)
        error.retryAfter = 60
        return error
    }
    /// A budget is used up: `429 rate_limited` with the seconds until it has room again.
    static func rateLimited(_ message: String, retryAfter: Int) -> APIError {
        var error = APIError(status: .tooManyRequests, code: "rate_limited", message: message)
        error.retryAfter = retryAfter
        return error
    }
    /// A body over a limit: `413 too_large`.
    static func tooLarge(_ limit: Int, of what: String = "the request body") -> APIError {
        APIError(status: .contentTooLarge, code: "too_large", message: "\(what) may have at most \(limit) bytes")
    }
    /// Content of a type the route does not take: `415 unsupported_type`.
    static func unsupportedType(_ message: String) -> APIError {
        APIError(status: .unsupportedMediaType, code: "unsupported_type", message: message)
    }
    static func unauthorized(_ message: String) -> APIError { APIError(status: .unauthorized, code: "unauthorized", message: message) }
    static func invalid(_ message: String, field: String? = nil) -> APIError {
        APIError(status: .unprocessableContent, code: "invalid", message: message, field: field)
    }
    /// A query parameter that is malformed or out of range: `400 bad_parameter`.
    static func badParameter(_ message: String, field: String) -> APIError {
        APIError(status: .badRequest, code: "bad_parameter", message: message, field: field)
    }
    static func conflict(_ message: String) -> APIError { APIError(status: .conflict, code: "conflict", message: message) }
    /// A JSON body member the request does not take: `400 bad_request` naming it (`path` as
    /// `report.location.altitude`).
    static func duplicateMember(_ name: String) -> APIError {
        APIError(status: .badRequest, code: "bad_request", message: "member \"\(name)\" appears twice in one object; name each member once", field: name)
    }
    static func unknownMember(_ path: String) -> APIError {
        APIError(status: .badRequest, code: "bad_request", message: "member \"\(path)\" is not one this request takes", field: path)
    }

    /// The error as a response; Hummingbird's own error handling produces the same for an
    /// `APIError` that escapes every middleware.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }

    /// The error's JSON body, also written by the connection guard for errors no route sees.
    var json: Data {
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String; let message: String; let field: String?; let current: String?; let nextAllowed: String?
                let problems: [FieldProblem]?
            }
            let error: Detail
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(Body(error: .init(code: code, message: message, field: field, current: current, nextAllowed: nextAllowed, problems: problems)))) ?? Data()
    }

    var response: Response {
        let data = json
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
