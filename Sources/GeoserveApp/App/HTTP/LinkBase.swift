import Hummingbird

/// The base URL of links in responses. Public responses are cached (here and by proxies), so a
/// link must never come from whatever `Host` a client sends: `Host: evil.example` would otherwise
/// be cached into every later reader's links. The configured public URL wins; without one, a
/// request's host is used only when it is one the operator allows. For any other host, links are
/// relative to the root (`/collections/…`): they name no host at all, and two processes behind
/// one proxy, listening on different ports, give the same bytes and so the same ETags.
struct LinkBase: Sendable {
    /// `--public-url`.
    let publicURL: String?
    /// Host names (without port) a request's `Host` may name; `*` allows any.
    let allowedHosts: Set<String>
    /// The address the service listens on, for the log line that names the dashboard.
    let listenAddress: String

    static let localHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", "::1"]

    func url(for request: Request) -> String {
        if let publicURL { return publicURL }
        guard let authority = request.head.authority, isAllowed(authority) else { return "" }
        return "http://" + authority
    }

    func isAllowed(_ authority: String) -> Bool {
        if allowedHosts.contains("*") { return true }
        // The host without its port; an IPv6 literal keeps its brackets.
        let host = authority.hasPrefix("[") ? String(authority.prefix { $0 != "]" }) + "]"
                                            : String(authority.prefix { $0 != ":" })
        return allowedHosts.contains(host.lowercased())
    }
}
