import GeoCore
import Aggregation
import Storage
import Support

/// The HTML form of the OGC resources, for people who open the API in a browser: plain tables
/// with the same numbers and links as the JSON, in the pages' frame under `ogc.css`. The pages
/// are templates (`ogc-*.html`); only the rows of their tables are put together here.
enum FeaturePages {
    static func landing(layers: [PublishedLayer], base: String) -> String {
        let rows = layers.map { l in
            let href = "\(base)/collections/\(URLQuery.escape(l.info.layer))/items?f=html"
            return "<tr><td><a href=\"\(HTML.escape(href))\">\(HTML.escape(l.info.layer))</a></td><td>\(HTML.escape(l.info.kind.rawValue))</td>"
                + "<td>\(l.info.version)</td><td>\(l.encoded.ids.count)</td></tr>"
        }.joined()
        return page("geoserve", PageAssets.ogcCollections, ["base": .text(base), "rows": .markup(rows)])
    }

    static func list(title: String, items: [String]) -> String {
        page(title, PageAssets.ogcList, ["items": .markup(items.map { "<li>\(HTML.escape($0))</li>" }.joined())])
    }

    static func items(layer: PublishedLayer, page: FeaturePage, statistics: FeatureStatistics?, query: FeatureQuery, base: String) -> String {
        let items = "\(base)/collections/\(URLQuery.escape(layer.info.layer))/items"
        let rows = page.ordinals.map { i in
            let id = layer.encoded.ids[i]
            let href = "\(items)/\(URLQuery.escape(id))?f=html"
            // Once a row: a live view releases an area each time it is asked for.
            let released = statistics?.released[id]
            let counts = Window.allCases.map { cell(released?.counts[$0]) }.joined()
            return "<tr><td><a href=\"\(HTML.escape(href))\">\(HTML.escape(id))</a></td><td>\(HTML.escape(layer.encoded.names[i] ?? ""))</td>\(counts)</tr>"
        }.joined()
        var nav: [String] = []
        if let p = page.previous { nav.append(link(items + "?" + query.linkQuery(cursor: p, format: .html), "previous")) }
        if let n = page.next { nav.append(link(items + "?" + query.linkQuery(cursor: n, format: .html), "next")) }
        // A page without areas says so and leads back, rather than showing a table of headers.
        let areas = rows.isEmpty
            ? "<p>No area of this layer matches these parameters. \(link(items + "?f=html", "All its areas"))</p>"
            : "<table><tr><th>id</th><th>name</th>\(windowHeaders)</tr>\(rows)</table>"
        return self.page("\(layer.info.layer): \(page.ordinals.count) of \(page.numberMatched)", PageAssets.ogcItems, [
            "geojson": .text(items + "?" + query.linkQuery(cursor: query.cursor, format: .json)),
            "navigation": .markup(nav.joined(separator: " · ")),
            "areas": .markup(areas),
            "note": .markup(note(statistics)),
        ])
    }

    static func item(layer: PublishedLayer, ordinal i: Int, statistics: FeatureStatistics?, base: String) -> String {
        let id = layer.encoded.ids[i]
        let json = "\(base)/collections/\(URLQuery.escape(layer.info.layer))/items/\(URLQuery.escape(id))?f=json"
        let feature = layer.feature(id: id)
        let properties = layer.properties(of: id).sorted { $0.key < $1.key }.map { key, value in
            let text = if case .string(let text) = value { text } else { GeoJSONWriter(precision: nil).string(value) }
            return "<tr><th>\(HTML.escape(key))</th><td>\(HTML.escape(text))</td></tr>"
        }.joined()
        let stats = statistics?.released[id]
        let windows = Window.allCases.map { w in
            "<tr><th>\(windowTitle(w))</th>\(cell(stats?.counts[w]))\(cell(stats?.previous[w]))\(cell(stats?.change[w]))\(rateCell(stats?.ratePer1000?[w]))</tr>"
        }.joined()
        return page("\(layer.info.layer) / \(feature?.name ?? id)", PageAssets.ogcItem, [
            "geojson": .text(json),
            "windows": .markup(windows),
            "note": .markup(note(statistics)),
            "properties": .markup(properties.isEmpty ? "" : "<h2>Area</h2><table>\(properties)</table>"),
        ])
    }

    /// A refusal as a page, with the ways on from there.
    static func error(title: String, message: String, base: String) -> String {
        page(title, PageAssets.ogcError, ["message": .text(message), "base": .text(base)])
    }

    /// A body template in the OGC pages' frame; `title` heads the page too.
    private static func page(_ title: String, _ template: PageTemplate, _ values: [String: PageTemplate.Value]) -> String {
        PageFrame.ogc(title: title).document(body: template.render(values.merging(["title": .text(title)]) { value, _ in value }))
    }

    private static func link(_ href: String, _ text: String) -> String {
        "<a href=\"\(HTML.escape(href))\">\(HTML.escape(text))</a>"
    }

    /// Verified reports per window, as the column headers say.
    private static let windowHeaders = Window.allCases.map { "<th>" + windowTitle($0) + "</th>" }.joined()

    private static func windowTitle(_ w: Window) -> String {
        switch w {
        case .d7: "7 days"
        case .d14: "14 days"
        case .d28: "28 days"
        case .all: "all time"
        }
    }

    /// What the numbers are, and, where any is withheld (verifiers' live view), what that means.
    private static func note(_ statistics: FeatureStatistics?) -> String {
        guard let statistics else { return "" }
        let withheld = statistics.released.hasSuppressed
            ? " <span class=\"withheld\">withheld</span>: too few reports to show without pointing at people." : ""
        return "<p>" + HTML.escape(statistics.caption) + withheld + "</p>"
    }

    /// A released rate as a table cell, to one decimal.
    private static func rateCell(_ value: Released<Double>?) -> String {
        cell(value?.map { ($0 * 10).rounded() / 10 })
    }

    /// A released number as a table cell: the number, or that it is withheld.
    private static func cell<V: Sendable & Hashable>(_ value: Released<V>?) -> String {
        switch value {
        case .value(let v)?: "<td class=\"n\">\(HTML.escape("\(v)"))</td>"
        case .suppressed?: "<td class=\"n withheld\">withheld</td>"
        case nil: "<td class=\"n\"></td>"
        }
    }
}
