import Hummingbird

/// JSON or HTML, by `f` or else by the `Accept` header (browsers ask for HTML).
enum ResponseFormat: String, Hashable, Sendable {
    case json, html

    init(_ request: Request, _ query: QueryValues) {
        self.init(f: query.text(QueryParameters.f), request)
    }

    /// The format asked for, read from the raw query: for answering a request whose query was
    /// refused as a whole.
    init(requestedBy request: Request) {
        self.init(f: request.uri.queryParameters["f"].map(String.init), request)
    }

    private init(f: String?, _ request: Request) {
        if let f {
            self = f == "html" ? .html : .json
        } else {
            let accept = request.headers[.accept] ?? ""
            self = accept.contains("text/html") && !accept.contains("json") ? .html : .json
        }
    }
}
