/// The frame every page shares: language, viewport, the one style sheet, Leaflet where a map is
/// drawn, and one deferred script of the page's own; nothing inline, as the
/// Content-Security-Policy requires.
enum PageShell {
    /// A whole page around `body` (the markup inside `<body>`); `title` is a constant of the
    /// page's, never text from a request.
    static func document(title: String, script: String, leaflet: Bool = false, noReferrer: Bool = false, bodyClass: String? = nil,
                         body: String) -> String {
        var page = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">

        """
        if noReferrer { page += "<meta name=\"referrer\" content=\"no-referrer\">\n" }
        page += "<title>\(title) · geoserve</title>\n"
        if leaflet { page += "<link rel=\"stylesheet\" href=\"/assets/leaflet/leaflet.css\">\n" }
        page += "<link rel=\"stylesheet\" href=\"/assets/pages.css\">\n"
        if leaflet { page += "<script src=\"/assets/leaflet/leaflet.js\" defer></script>\n" }
        page += "<script src=\"\(script)\" defer></script>\n</head>\n"
        page += bodyClass.map { "<body class=\"\($0)\">\n" } ?? "<body>\n"
        return page + body + "\n</body>\n</html>\n"
    }
}
