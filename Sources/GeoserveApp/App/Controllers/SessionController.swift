import Foundation
import Hummingbird
import Storage

/// Page sessions (`PageSession`): sign in with a cookie, read the session with its CSRF token,
/// sign out. The API's bearer tokens are unchanged; this is for the pages.
struct SessionController {
    let auth: AuthController
    /// Whether cookies are marked `Secure` (the public address is https).
    let secureCookies: Bool

    struct SessionView: ResponseEncodable {
        let account: AuthController.AccountView
        /// Send as `X-CSRF-Token` with every change made through the session.
        let csrfToken: String
        let expiresAt: Date?
    }

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.post("auth/session") { request, context in
            let (token, expires, account) = try await auth.signIn(request, context)
            var response = try SessionView(account: .init(account), csrfToken: PageSession.csrfToken(for: token), expiresAt: expires)
                .response(from: request, context: context)
            response.status = .created
            response.setCookie(PageSession.cookie(token, expires: expires, secure: secureCookies))
            response.headers[.cacheControl] = "no-store"
            return response
        }
        v1.get("auth/session") { request, context in
            guard let account = context.account, let token = PageSession.token(in: request), request.headers[.authorization] == nil else {
                throw APIError.unauthorized("no page session: sign in with POST /v1/auth/session")
            }
            var response = try SessionView(account: .init(account), csrfToken: PageSession.csrfToken(for: token), expiresAt: nil)
                .response(from: request, context: context)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        v1.delete("auth/session") { request, _ in
            // The CSRF check ran in the auth middleware; a stale cookie is simply cleared.
            if let token = PageSession.token(in: request) {
                try await auth.accounts.revokeToken(hash: Credentials.tokenHash(token))
            }
            var response = Response(status: .noContent)
            response.setCookie(PageSession.expired(secure: secureCookies))
            return response
        }
    }
}
