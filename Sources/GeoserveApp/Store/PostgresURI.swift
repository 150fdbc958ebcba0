import Foundation

/// A libpq connection URI split where a password can stand: in the user part
/// (`postgres://user:secret@host/db`) and in a `password` parameter. Foundation's `URLComponents`
/// refuses what libpq reads well, several hosts (`postgres://u@db1:5432,db2:5432/geoserve?
/// target_session_attrs=read-write`, how a standby is named beside its primary), so the start
/// line and `geoserve config` printed such a location as unreadable. Nothing is decoded: the
/// parts are kept as written, and only a password is masked or left out.
struct PostgresURI {
    let scheme: String
    var user: String?
    var password: String?
    let hosts: String
    let path: String
    var parameters: [String]

    init?(_ uri: String) {
        guard let schemeEnd = uri.range(of: "://") else { return nil }
        scheme = String(uri[..<schemeEnd.upperBound])
        let afterScheme = uri[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        // A password's own `@` is percent-encoded, so the last one ends the user part.
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                user = String(userInfo[..<colon])
                password = String(userInfo[userInfo.index(after: colon)...])
            } else {
                user = String(userInfo)
            }
            hosts = String(authority[authority.index(after: at)...])
        } else {
            hosts = String(authority)
        }
        let rest = afterScheme[authorityEnd...]
        if let question = rest.firstIndex(of: "?") {
            path = String(rest[..<question])
            parameters = rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true).map(String.init)
        } else {
            path = String(rest)
            parameters = []
        }
    }

    /// Whether a parameter is the password (`password=…`, any case).
    static func isPassword(_ parameter: String) -> Bool {
        parameter.split(separator: "=", maxSplits: 1).first.map { $0.lowercased() == "password" } ?? false
    }

    /// Whether the URI holds a password anywhere.
    var holdsPassword: Bool { password != nil || parameters.contains(where: Self.isPassword) }

    /// The URI with every password replaced by `mask`, or left out when `mask` is nil.
    func text(maskingPasswordWith mask: String?) -> String {
        var out = scheme
        if let user {
            out += user
            if password != nil, let mask { out += ":" + mask }
            out += "@"
        }
        out += hosts + path
        let kept = parameters.compactMap { parameter -> String? in
            guard Self.isPassword(parameter) else { return parameter }
            return mask.map { "password=" + $0 }
        }
        if !kept.isEmpty { out += "?" + kept.joined(separator: "&") }
        return out
    }
}
