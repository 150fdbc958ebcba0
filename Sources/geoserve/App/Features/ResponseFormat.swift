import Hummingbird

/// JSON or HTML, by `f` or else by the `Accept` header (browsers ask for HTML).
enum ResponseFormat: String, Hashable, Sendable {
    case json, html

    init(_ request: Request, _ query: QueryValues) {
        if let f = query.text(QueryParameters.f) {
            self = f == "html" ? .html : .json
            return
        }
        self = Self.byAccept(request)
    }

    /// The format asked for, read from the raw query: for answering a request whose query was
    /// refused as a whole.
    init(requestedBy request: Request) {
        if let f = request.uri.queryParameters["f"] {
            self = f == "html" ? .html : .json
            return
        }
        self = Self.byAccept(request)
    }

    private static func byAccept(_ request: Request) -> ResponseFormat {
        let accept = request.headers[.accept] ?? ""
        return accept.contains("text/html") && !accept.contains("json") ? .html : .json
    }
}
