import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GeoserveApp

@Suite("pages")
struct PagesTests {
    @Test("a browser asking for / gets the dashboard under a Content-Security-Policy without inline code; JSON clients still get the landing document")
    func dashboard() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let page = try await client.execute(uri: "/", method: .get, headers: [.accept: "text/html,application/xhtml+xml"]) { $0 }
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let policy = page.headers[.contentSecurityPolicy] ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("style-src 'self'") && !policy.contains("unsafe-inline"))
            #expect(page.headers[.xFrameOptions] == "DENY")
            let html = String(buffer: page.body)
            #expect(html.contains(#"<script src="/assets/dashboard.js" defer></script>"#))
            // No inline script, style element or style attribute: the policy would block them.
            #expect(!html.contains("<script>") && !html.contains("<style") && !html.contains(" style="))
            #expect(html.contains(#"<table id="areas">"#))
            let (status, _, landing) = try await client.getJSON("/")
            #expect(status == .ok && landing["links"] != nil)
        }
    }

    @Test("no base map unless the operator sets one; then the dashboard names it and the policy lets its images in, and nothing else")
    func baseMap() async throws {
        var service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let page = try await client.execute(uri: "/", method: .get, headers: [.accept: "text/html"]) { $0 }
            #expect(String(buffer: page.body).contains(#"data-basemap="""#))
            #expect(page.headers[.contentSecurityPolicy]?.contains("img-src 'self' data:;") == true)
        }
        service.configuration.basemap = try BaseMap(urlTemplate: "https://{s}.tiles.example.org/{z}/{x}/{y}.png?style=a&b", attribution: "© Example <maps>")
        try await service.run { client in
            let page = try await client.execute(uri: "/", method: .get, headers: [.accept: "text/html"]) { $0 }
            let html = String(buffer: page.body)
            #expect(html.contains(#"data-basemap="https://{s}.tiles.example.org/{z}/{x}/{y}.png?style=a&amp;b""#))
            #expect(html.contains(#"data-basemap-attribution="© Example &lt;maps&gt;""#))
            #expect(page.headers[.contentSecurityPolicy]?.contains("img-src 'self' data: https://*.tiles.example.org;") == true)
            let report = try await client.execute(uri: "/report", method: .get) { $0.headers[.contentSecurityPolicy] }
            #expect(report?.contains("https://*.tiles.example.org") == true)
        }
        #expect(throws: BaseMap.Refused.self) { try BaseMap(urlTemplate: "https://tiles.example.org/{z}/{x}.png", attribution: "x") }
        #expect(throws: BaseMap.Refused.self) { try BaseMap(urlTemplate: "ftp://tiles.example.org/{z}/{x}/{y}.png", attribution: "x") }
        #expect(throws: BaseMap.Refused.self) { try BaseMap(urlTemplate: "/{z}/{x}/{y}.png", attribution: "x") }
        #expect(throws: BaseMap.Refused.self) { try BaseMap(urlTemplate: "https://tiles.example.org/{z}/{x}/{y}.png", attribution: " ") }
        #expect(throws: BaseMap.Refused.self) { try BaseMap(urlTemplate: "https://tiles.example.org/{z}/{x}/{y}.png; script-src *", attribution: "x") }
        #expect(try BaseMap(urlTemplate: "http://127.0.0.1:8081/{z}/{x}/{y}.png", attribution: "local").origin == "http://127.0.0.1:8081")
    }

    @Test("every HTML page, the OGC resources' too, has the policy and no inline style; its style sheet is a file")
    func ogcPages() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            for uri in ["/collections?f=html", "/collections/halls/items?f=html", "/collections/halls/items/H03?f=html", "/conformance?f=html"] {
                let page = try await client.execute(uri: uri, method: .get) { $0 }
                #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8", "\(uri)")
                let policy = page.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("style-src 'self'") && !policy.contains("unsafe-inline"), "\(uri)")
                let html = String(buffer: page.body)
                #expect(!html.contains("<style") && !html.contains("<script") && html.contains(#"href="/assets/ogc.css""#), "\(uri)")
            }
            let css = try await client.execute(uri: "/assets/ogc.css", method: .get) { $0 }
            #expect(css.status == .ok && String(buffer: css.body).contains("border-collapse"))
            // JSON answers carry no page policy.
            // Every answer, JSON, PNG and errors included, forbids sniffing its type.
            for uri in ["/collections/halls/items?f=json", "/collections?f=html", "/tiles/halls/16/16806/24357.png", "/v1/reports/nope", "/no/such/route"] {
                let sniffing = try await client.execute(uri: uri, method: .get) { $0.headers[.xContentTypeOptions] }
                #expect(sniffing == "nosniff", "\(uri)")
            }
            let json = try await client.execute(uri: "/collections/halls/items?f=json", method: .get) { $0.headers[.contentSecurityPolicy] }
            #expect(json == nil)
        }
    }

    @Test("the report form, the receipt page and the admin console are served under the policy, with labelled fields and no inline code")
    func formPages() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            for (uri, scripts) in [("/report", ["/assets/outbox.js", "/assets/report.js"]), ("/report/receipt", ["/assets/outbox.js", "/assets/report.js"]),
                                   ("/admin", ["/assets/admin.js"])] {
                let page = try await client.execute(uri: uri, method: .get) { $0 }
                #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8", "\(uri)")
                let policy = page.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline") && policy.contains("form-action 'self'"), "\(uri)")
                let html = String(buffer: page.body)
                // The shared DOM helpers load first: deferred scripts run in document order.
                let tags = (["/assets/dom.js"] + scripts).map { #"<script src="\#($0)" defer></script>"# }.joined(separator: "\n")
                #expect(html.contains(tags), "\(uri)")
                #expect(!html.contains("<script>") && !html.contains(" style="), "\(uri)")
                // Every input, select and text area has a label naming it (by id).
                let ids = html.matches(of: /<(?:input|select|textarea) id="([^"]+)"/).map { String($0.1) }
                let labelled = Set(html.matches(of: /<label for="([^"]+)"/).map { String($0.1) })
                #expect(!ids.isEmpty && ids.allSatisfy(labelled.contains), "\(uri): unlabelled \(ids.filter { !labelled.contains($0) })")
                for script in scripts {
                    let js = try await client.execute(uri: script, method: .get) { $0 }
                    #expect(js.status == .ok && js.headers[.contentType] == "text/javascript; charset=utf-8")
                    // Text goes into pages as text: no innerHTML anywhere in the scripts.
                    #expect(!String(buffer: js.body).contains("innerHTML"))
                }
            }
        }
    }

    @Test("the dashboard's scripts and style are served with ETags and revalidate to 304")
    func assets() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            for (path, type) in [("/assets/dashboard.js", "text/javascript; charset=utf-8"), ("/assets/dom.js", "text/javascript; charset=utf-8"),
                                 ("/assets/pages.css", "text/css; charset=utf-8")] {
                let first = try await client.execute(uri: path, method: .get) { $0 }
                #expect(first.status == .ok && first.headers[.contentType] == type && first.body.readableBytes > 1000)
                let etag = try #require(first.headers[.eTag])
                let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag]) { $0.status }
                #expect(again == .notModified)
            }
            // Data reaches the pages as text only: text nodes and textContent, never markup.
            for path in ["/assets/dom.js", "/assets/dashboard.js", "/assets/outbox.js", "/assets/report.js", "/assets/admin.js"] {
                let script = try await client.execute(uri: path, method: .get) { String(buffer: $0.body) }
                #expect(!script.contains("innerHTML") && !script.contains("outerHTML") && !script.contains("insertAdjacentHTML") && !script.contains("eval("), "\(path)")
            }
        }
    }

    @Test("the pages' own scripts, styles and HTML go gzip-compressed when the browser takes it, and decompress to the plain file")
    func ownAssetsCompressed() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            for path in ["/assets/report.js", "/assets/outbox.js", "/assets/dashboard.js", "/assets/admin.js", "/assets/dom.js", "/assets/pages.css", "/report", "/admin"] {
                let plain = try await client.execute(uri: path, method: .get) { $0 }
                let zipped = try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip, deflate, br"]) { $0 }
                #expect(plain.headers[.contentEncoding] == nil && zipped.headers[.contentEncoding] == "gzip", "\(path)")
                #expect(plain.headers[.vary] == "Accept-Encoding" && zipped.headers[.vary] == "Accept-Encoding", "\(path)")
                #expect(zipped.body.readableBytes < plain.body.readableBytes * 2 / 3, "\(path): \(zipped.body.readableBytes) of \(plain.body.readableBytes)")
                // A different representation has its own tag, and each revalidates.
                let tag = try #require(zipped.headers[.eTag])
                #expect(tag != plain.headers[.eTag])
                #expect(try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag]) { $0.status } == .notModified)
                #expect(try gunzip(Array(buffer: zipped.body)) == Array(buffer: plain.body), "\(path)")
            }
        }
    }

    @Test("Leaflet comes from the system package's files, gzip-compressed when the browser takes it; a missing package is named")
    func leaflet() async throws {
        var service = try await TestService(demo: false)
        defer { service.remove() }
        let installed = LeafletFiles(folder: LeafletFiles.defaultFolder)
        try #require(installed.isInstalled, "libjs-leaflet is installed by ./dev.sh test")
        try await service.run { client in
            let plain = try await client.execute(uri: "/assets/leaflet/leaflet.js", method: .get) { $0 }
            #expect(plain.status == .ok && plain.headers[.contentEncoding] == nil)
            #expect(String(buffer: plain.body).contains("Leaflet"))
            let zipped = try await client.execute(uri: "/assets/leaflet/leaflet.js", method: .get, headers: [.acceptEncoding: "gzip, deflate"]) { $0 }
            #expect(zipped.status == .ok && zipped.headers[.contentEncoding] == "gzip")
            #expect(zipped.body.readableBytes < plain.body.readableBytes / 2)
            #expect(try await client.execute(uri: "/assets/leaflet/leaflet.css", method: .get) { $0.status } == .ok)
            // Only the files the page needs: nothing else of the folder, and no way out of it.
            #expect(try await client.execute(uri: "/assets/leaflet/leaflet.esm.js", method: .get) { $0.status } == .notFound)
            #expect(try await client.execute(uri: "/assets/leaflet/../../../etc/passwd", method: .get) { $0.status } == .notFound)
        }
        let empty = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        service.configuration.leafletFolder = empty.path
        try await service.run { client in
            let (status, body) = try await client.json(.get, "/assets/leaflet/leaflet.js")
            #expect(status == .notFound)
            #expect(errorMessage(body)?.contains("libjs-leaflet") == true)
        }
    }
}
