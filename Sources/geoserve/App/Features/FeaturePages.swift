import GeoCore
import Aggregation
import Storage
import Support

/// The HTML form of the OGC resources, for people who open the API in a browser: plain tables
/// with the same numbers and links as the JSON.
enum FeaturePages {
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    static func document(_ title: String, _ body: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title><link rel="stylesheet" href="/assets/ogc.css"></head>
        <body><h1>\(escape(title))</h1>\(body)</body></html>
        """
    }

    static func landing(layers: [PublishedLayer], base: String) -> String {
        let rows = layers.map { l in
            let href = "\(base)/collections/\(URLQuery.escape(l.info.layer))/items?f=html"
            return "<tr><td><a href=\"\(escape(href))\">\(escape(l.info.layer))</a></td><td>\(l.info.kind.rawValue)</td><td>\(l.info.version)</td><td>\(l.encoded.ids.count)</td></tr>"
        }.joined()
        return document("geoserve", """
            <p>Verified, disclosure-controlled report counts per area. <a href="\(escape(base))/openapi.json">API definition</a> ·
            <a href="\(escape(base))/conformance?f=html">conformance</a></p>
            <table><tr><th>collection</th><th>kind</th><th>version</th><th>features</th></tr>\(rows)</table>
            """)
    }

    static func list(title: String, items: [String]) -> String {
        document(title, "<ul>" + items.map { "<li>\(escape($0))</li>" }.joined() + "</ul>")
    }

    static func items(layer: PublishedLayer, page: FeaturePage, statistics: FeatureStatistics?, query: FeatureQuery, base: String) -> String {
        let items = "\(base)/collections/\(URLQuery.escape(layer.info.layer))/items"
        let rows = page.ordinals.map { i in
            let id = layer.encoded.ids[i]
            let href = "\(items)/\(URLQuery.escape(id))?f=html"
            let counts = Window.allCases.map { cell(statistics?.released[id]?.counts[$0]) }.joined()
            return "<tr><td><a href=\"\(escape(href))\">\(escape(id))</a></td><td>\(escape(layer.encoded.names[i] ?? ""))</td>\(counts)</tr>"
        }.joined()
        var nav: [String] = []
        if let p = page.previous { nav.append("<a href=\"\(escape(items + "?" + query.linkQuery(cursor: p, format: .html)))\">previous</a>") }
        if let n = page.next { nav.append("<a href=\"\(escape(items + "?" + query.linkQuery(cursor: n, format: .html)))\">next</a>") }
        // A page without areas says so and leads back, rather than showing a table of headers.
        let table = rows.isEmpty
            ? "<p>No area of this layer matches these parameters. <a href=\"\(escape(items))?f=html\">All its areas</a></p>"
            : "<table><tr><th>id</th><th>name</th>\(windowHeaders)</tr>\(rows)</table>"
        return document("\(layer.info.layer): \(page.ordinals.count) of \(page.numberMatched)", """
            <p><a href="\(escape(items + "?" + query.linkQuery(cursor: query.cursor, format: .json)))">GeoJSON</a> \(nav.joined(separator: " · "))</p>
            \(table)\(note(statistics))
            """)
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
        let withheld = statistics.released.anyValue { !$0.suppressedFields.isEmpty }
            ? " <span class=\"withheld\">withheld</span>: too few reports to show without pointing at people." : ""
        return "<p>" + escape(statistics.caption) + withheld + "</p>"
    }

    /// A released rate as a table cell, to one decimal.
    private static func rateCell(_ value: Released<Double>?) -> String {
        cell(value?.map { ($0 * 10).rounded() / 10 })
    }

    /// A released number as a table cell: the number, or that it is withheld.
    private static func cell<V: Sendable & Hashable>(_ value: Released<V>?) -> String {
        switch value {
        case .value(let v)?: "<td class=\"n\">\(escape("\(v)"))</td>"
        case .suppressed?: "<td class=\"n withheld\">withheld</td>"
        case nil: "<td class=\"n\"></td>"
        }
    }

    static func item(layer: PublishedLayer, ordinal i: Int, statistics: FeatureStatistics?, base: String) -> String {
        let id = layer.encoded.ids[i]
        let json = "\(base)/collections/\(URLQuery.escape(layer.info.layer))/items/\(URLQuery.escape(id))?f=json"
        let feature = layer.feature(id: id)
        let properties = layer.properties(of: id).sorted { $0.key < $1.key }.map { key, value in
            let text = if case .string(let text) = value { text } else { GeoJSONWriter(precision: nil).string(value) }
            return "<tr><th>\(escape(key))</th><td>\(escape(text))</td></tr>"
        }.joined()
        let stats = statistics?.released[id]
        let rows = Window.allCases.map { w in
            "<tr><th>\(windowTitle(w))</th>\(cell(stats?.counts[w]))\(cell(stats?.previous[w]))\(cell(stats?.change[w]))\(rateCell(stats?.ratePer1000?[w]))</tr>"
        }.joined()
        return document("\(layer.info.layer) / \(feature?.name ?? id)", """
            <p><a href="\(escape(json))">GeoJSON</a></p>
            <table><tr><th>window</th><th>verified</th><th>window before</th><th>change</th><th>per 1,000</th></tr>\(rows)</table>\(note(statistics))
            \(properties.isEmpty ? "" : "<h2>Area</h2><table>\(properties)</table>")
            """)
    }
}
