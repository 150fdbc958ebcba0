import Testing
@testable import GeoserveApp

@Suite("page templates")
struct PageTemplateTests {
    @Test("placeholders are filled: text escaped, markup as it is, everything else left alone")
    func render() throws {
        let template = try PageTemplate(#"<p title="{{title}}">{{body}}</p><a href="{{href}}">{{title}}</a> { } {x} }}"#)
        #expect(template.placeholders == ["title", "body", "href"])
        let page = template.render([
            "title": .text(#"<Tom & "Jerry's">"#),
            "body": .markup("<em>kept</em>"),
            "href": .text("/a?b=1&c=2"),
        ])
        #expect(page == #"<p title="&lt;Tom &amp; &quot;Jerry&#39;s&quot;&gt;"><em>kept</em></p><a href="/a?b=1&amp;c=2">&lt;Tom &amp; &quot;Jerry&#39;s&quot;&gt;</a> { } {x} }}"#)
    }

    @Test("a template without placeholders is its text; placeholders at either end are filled")
    func edges() throws {
        #expect(try PageTemplate("").render() == "")
        #expect(try PageTemplate("plain\n").render() == "plain\n")
        #expect(try PageTemplate("{{a}}-{{b2}}").render(["a": .text("1"), "b2": .markup("<2>")]) == "1-<2>")
    }

    @Test("what is not a placeholder is refused, not served", arguments: ["{{", "a {{title", "{{}}", "{{ title }}", "{{1st}}", "{{a-b}}", "{{é}}"])
    func malformed(_ source: String) {
        #expect(throws: PageTemplate.Malformed.self) { try PageTemplate(source) }
    }

    @Test("one escape for every page: the five characters HTML gives meaning, and nothing else")
    func escape() {
        #expect(HTML.escape(#"a<b>&"c'"#) == "a&lt;b&gt;&amp;&quot;c&#39;")
        #expect(HTML.escape("Zoë · 東京 \u{1F600}") == "Zoë · 東京 \u{1F600}")
    }

    @Test("every template compiled into the binary parses, with the placeholders its page fills")
    func embedded() throws {
        let expected: [(String, [UInt8], Set<String>)] = [
            ("shell.html", PackageResources.shell_html, ["meta", "title", "styles", "scripts", "bodyClass", "body"]),
            ("dashboard.html", PackageResources.dashboard_html, ["basemap", "basemapAttribution"]),
            ("report.html", PackageResources.report_html, Set(ReportFormLimits.values.keys)),
            ("receipt.html", PackageResources.receipt_html, []),
            ("admin.html", PackageResources.admin_html, Set(ConsoleLimits.values.keys)),
            ("ogc-collections.html", PackageResources.ogc_collections_html, ["title", "base", "rows"]),
            ("ogc-list.html", PackageResources.ogc_list_html, ["title", "items"]),
            ("ogc-items.html", PackageResources.ogc_items_html, ["title", "geojson", "navigation", "areas", "note"]),
            ("ogc-item.html", PackageResources.ogc_item_html, ["title", "geojson", "windows", "note", "properties"]),
            ("ogc-error.html", PackageResources.ogc_error_html, ["title", "message", "base"]),
        ]
        for (name, bytes, placeholders) in expected {
            let template = try PageTemplate(String(decoding: bytes, as: UTF8.self))
            #expect(template.placeholders == placeholders, "\(name)")
        }
    }

    @Test("the frame: title escaped, style sheets and deferred scripts in order, no-referrer only where asked")
    func frame() {
        let page = PageFrame.app(title: "A <b>", scripts: ["/assets/x.js"], leaflet: true, noReferrer: true, bodyClass: "admin").document(body: "<main></main>\n")
        #expect(page.hasPrefix("<!doctype html>\n<html lang=\"en\">\n"))
        #expect(page.contains("<link rel=\"icon\" href=\"/assets/icon.svg\" type=\"image/svg+xml\">\n<link rel=\"manifest\" href=\"/manifest.webmanifest\">\n"))
        #expect(page.contains("<meta name=\"referrer\" content=\"no-referrer\">\n<title>A &lt;b&gt; · geoserve</title>\n"))
        #expect(page.contains("""
            <link rel="stylesheet" href="/assets/leaflet/leaflet.css">
            <link rel="stylesheet" href="/assets/pages.css">
            <script src="/assets/leaflet/leaflet.js" defer></script>
            <script src="/assets/dom.js" defer></script>
            <script src="/assets/x.js" defer></script>
            </head>
            <body class="admin">
            <main></main>
            </body>
            </html>
            """))
        let ogc = PageFrame.ogc(title: "Conformance").document(body: "<h1>Conformance</h1>\n")
        #expect(ogc.contains("<title>Conformance</title>\n<link rel=\"stylesheet\" href=\"/assets/ogc.css\">\n</head>"))
        #expect(!ogc.contains("<script") && !ogc.contains("referrer"))
    }
}
