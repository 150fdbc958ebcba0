import Foundation
import Hummingbird
import Logging
import NIOHTTP1
import Storage

/// Maps every error to the JSON error shape. Unknown errors become a generic 500: their text may
/// carry library or database detail (even personal data) and is logged, never sent.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let health: WriteHealth

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let refusal as any Refusal {
            return APIError(refusal).response
        } catch StorageError.unavailable(let why) {
            // The database is down, restarting or out of connections: a client should come back,
            // and a load balancer should try another process. The reason is logged, not sent.
            context.logger.warning("database unavailable", metadata: ["reason": "\(why)"])
            return APIError.unavailable("the database is not reachable right now; try again shortly").response
        } catch StorageError.diskFull {
            // Nothing was committed; reads go on. The answer matches a full attachments disk.
            health.diskFull(context.logger)
            return APIError.insufficientStorage("the server is short of disk space; nothing was stored; try again later").response
        } catch is CredentialsBusy {
            return APIError.unavailable("too many logins at once; try again in a second", retryAfter: 1).response
        } catch StorageError.limitReached(let why) {
            return APIError(status: .conflict, code: "limit_reached", message: why).response
        } catch let error as HTTPParserError {
            // A body that broke off or was badly framed: Hummingbird answers and closes the
            // connection, and the connection guard gives that answer the JSON shape.
            throw error
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
            if let refusal = APIError(storeRefusal: error) { return refusal.response }
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
