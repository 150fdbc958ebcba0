import Hummingbird

extension Request {
    /// The service's base URL for links in responses: the configured public URL (`--public-url`,
    /// for a service behind a proxy or TLS terminator), else this request's own host.
    func baseURL(publicURL: String?) -> String {
        publicURL ?? "http://" + (head.authority ?? "localhost")
    }
}
