import Storage
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
        <title>\(escape(title))</title><style>body{font:15px/1.4 system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse}
        td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}th{background:#f4f4f4}</style></head>
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
            let props = [layer.encoded.propertyMembers[i], statistics?.areaMembers[id] ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
            return "<tr><td><a href=\"\(escape(href))\">\(escape(id))</a></td><td>\(escape(layer.encoded.names[i] ?? ""))</td><td><code>\(escape(props))</code></td></tr>"
        }.joined()
        var nav: [String] = []
        if let p = page.previous { nav.append("<a href=\"\(escape(items + "?" + query.linkQuery(cursor: p, format: .html)))\">previous</a>") }
        if let n = page.next { nav.append("<a href=\"\(escape(items + "?" + query.linkQuery(cursor: n, format: .html)))\">next</a>") }
        return document("\(layer.info.layer): \(page.ordinals.count) of \(page.numberMatched)", """
            <p><a href="\(escape(items + "?" + query.linkQuery(cursor: query.cursor, format: .json)))">GeoJSON</a> \(nav.joined(separator: " · "))</p>
            <table><tr><th>id</th><th>name</th><th>properties</th></tr>\(rows)</table>
            """)
    }

    static func item(layer: PublishedLayer, ordinal i: Int, statistics: FeatureStatistics?, base: String) -> String {
        let id = layer.encoded.ids[i]
        let props = [layer.encoded.propertyMembers[i], statistics?.areaMembers[id] ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
        let json = "\(base)/collections/\(URLQuery.escape(layer.info.layer))/items/\(URLQuery.escape(id))?f=json"
        return document("\(layer.info.layer) / \(id)", "<p><a href=\"\(escape(json))\">GeoJSON</a></p><p><code>\(escape(props))</code></p>")
    }
}
