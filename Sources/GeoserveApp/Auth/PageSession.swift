import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Support

/// Sessions of the pages (the admin console): the same tokens as the API's bearer tokens, carried
/// in an `HttpOnly`, `SameSite=Strict` cookie so that page scripts never hold them. A request
/// that changes something with the cookie must also send the session's CSRF token in
/// `X-CSRF-Token`: a page of this origin has it (from `GET /v1/auth/session`), another site's
/// form or script does not.
enum PageSession {
    static let cookieName = "geoserve_session"

    /// The session token the request's cookie carries, if any.
    static func token(in request: Request) -> String? {
        guard let value = request.cookies[cookieName]?.value, !value.isEmpty, value.utf8.count <= 128 else { return nil }
        return value
    }

    /// The CSRF token bound to a session token: a digest of it, so it needs no storage, proves
    /// knowledge of the session (which scripts of other origins cannot read), and reveals
    /// nothing of the session token itself.
    static func csrfToken(for sessionToken: String) -> String {
        Data(SHA256.hash(data: Data(("geoserve-csrf\u{1F}" + sessionToken).utf8))).base64URLEncoded
    }

    /// Whether a request with the cookie may change something: safe methods always, others only
    /// with the session's CSRF token.
    static func isAllowed(_ request: Request, sessionToken: String) -> Bool {
        switch request.method {
        case .get, .head, .options: return true
        default:
            guard let presented = request.headers[.csrfToken] else { return false }
            return ConstantTime.equal(presented, csrfToken(for: sessionToken))
        }
    }

    /// The cookie that opens a session: `Secure` when the service's public address is https
    /// (behind a TLS proxy), since a cookie marked so would never come back over plain http.
    static func cookie(_ token: String, expires: Date, secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: token, expires: expires, maxAge: max(0, Int(expires.timeIntervalSinceNow)), path: "/",
               secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The cookie that ends one.
    static func expired(secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: "", expires: Date(timeIntervalSince1970: 0), maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }
}

extension HTTPField.Name {
    static let csrfToken = HTTPField.Name("X-CSRF-Token")!
}
