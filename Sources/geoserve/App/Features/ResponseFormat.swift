import Hummingbird

/// JSON or HTML, by `f` or else by the `Accept` header (browsers ask for HTML).
enum ResponseFormat: String, Hashable, Sendable {
    case json, html

    init(_ request: Request, _ query: QueryValues) {
        if let f = query.text(QueryParameters.f) {
            self = f == "html" ? .html : .json
            return
        }
        let accept = request.headers[.accept] ?? ""
        self = accept.contains("text/html") && !accept.contains("json") ? .html : .json
    }
}
