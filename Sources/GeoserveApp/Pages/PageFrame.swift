/// The frame every page shares (`shell.html`): language, viewport, title, style sheets and
/// deferred scripts, all files of this origin; nothing inline, as the Content-Security-Policy
/// requires.
struct PageFrame {
    /// A constant of the page's or text the server escapes, never markup.
    var title: String
    var styleSheets: [String]
    var scripts: [String] = []
    /// Sends no Referer at all, for pages that carry secrets in their address; the others keep
    /// the policy of the response's header.
    var noReferrer = false
    var bodyClass = ""

    /// The people's pages: their style sheet, Leaflet where a map is drawn, the shared DOM helpers
    /// and the page's own scripts, in order.
    static func app(title: String, scripts: [String], leaflet: Bool = false, noReferrer: Bool = false, bodyClass: String = "") -> PageFrame {
        PageFrame(title: title + " · geoserve",
                  styleSheets: (leaflet ? ["/assets/leaflet/leaflet.css"] : []) + ["/assets/pages.css"],
                  scripts: (leaflet ? ["/assets/leaflet/leaflet.js"] : []) + ["/assets/dom.js"] + scripts,
                  noReferrer: noReferrer,
                  bodyClass: bodyClass)
    }

    /// The OGC resources' pages: plain tables under their own style sheet, no script.
    static func ogc(title: String) -> PageFrame {
        PageFrame(title: title, styleSheets: ["/assets/ogc.css"])
    }

    /// The whole page around `body`, the markup inside `<body>`.
    func document(body: String) -> String {
        PageAssets.shell.render([
            "meta": .markup(noReferrer ? "<meta name=\"referrer\" content=\"no-referrer\">\n" : ""),
            "title": .text(title),
            "styles": .markup(styleSheets.map { "<link rel=\"stylesheet\" href=\"\(HTML.escape($0))\">\n" }.joined()),
            "scripts": .markup(scripts.map { "<script src=\"\(HTML.escape($0))\" defer></script>\n" }.joined()),
            "bodyClass": .text(bodyClass),
            "body": .markup(body),
        ])
    }
}
