import Foundation
import Hummingbird
import Logging
import ReportVerification
import Storage

/// Reads `Authorization: Bearer <token>` and puts the account into the context. A request without
/// the header stays anonymous; a header with an unknown, expired or revoked token is refused with
/// 401 rather than silently treated as anonymous.
///
/// Without the header, on the routes that take page sessions (`/v1`, which the console calls), a
/// session's cookie (`PageSession`) authenticates instead — but only while valid (a stale cookie
/// must not turn the public pages' reads into 401s), and for changes only with the session's
/// CSRF token (403 `csrf` otherwise). The OGC routes ignore the cookie: a verifier who opens the
/// public dashboard sees the published numbers, as everyone does, not the live view.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: any AccountStore
    var acceptsSessionCookie = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            guard acceptsSessionCookie, let session = PageSession.token(in: request),
                  let account = try await accounts.account(tokenHash: Credentials.tokenHash(session), now: Date()) else {
                return try await next(request, context)
            }
            guard PageSession.isAllowed(request, sessionToken: session) else {
                throw APIError(status: .forbidden, code: "csrf", message: "a change made with the session cookie needs the session's X-CSRF-Token header")
            }
            return try await next(request, Self.signedIn(context, account))
        }
        guard header.lowercased().hasPrefix("bearer "), case let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces), !token.isEmpty else {
            throw APIError.unauthorized("the Authorization header must be \"Bearer <token>\"")
        }
        guard let account = try await accounts.account(tokenHash: Credentials.tokenHash(token), now: Date()) else {
            throw APIError.unauthorized("the token is unknown, expired or revoked; log in again")
        }
        return try await next(request, Self.signedIn(context, account))
    }

    private static func signedIn(_ context: Context, _ account: StoredAccount) -> Context {
        var context = context
        context.account = account
        context.note.account = account.id
        context.logger[metadataKey: "account"] = .string(account.id)
        return context
    }
}

/// Lets a request through only when its account has a permission: 401 without an account, 403
/// with one that lacks it. Route groups carry it, so handlers never repeat role checks.
struct RequirePermission: RouterMiddleware {
    typealias Context = AppRequestContext
    let permission: Permission

    init(_ permission: Permission) {
        self.permission = permission
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let account = context.account else { throw APIError.unauthorized("this needs a bearer token") }
        guard account.role.allows(permission) else {
            throw APIError(status: .forbidden, code: "forbidden", message: "the \(account.role.rawValue) role may not do this")
        }
        return try await next(request, context)
    }
}
