import Foundation
import HTTPTypes
import Hummingbird

/// The pages people open in a browser and the files they load: the dashboard (the landing
/// page's HTML form, see `FeaturesController.landing`), the report form, the receipt page and the
/// admin console, their scripts and style sheets (`Pages/Assets`, compiled into the binary), and
/// Leaflet from the system package. Every page is sent with a Content-Security-Policy that allows
/// only this origin's scripts, styles and images: no inline script or style anywhere.
struct PagesController: Sendable {
    let leaflet: LeafletFiles
    /// The dashboard, with the operator's base map (if any) written into it; the landing route
    /// sends it as its HTML form (`PageSecurityMiddleware` adds the policy headers).
    let dashboard: Asset

    init(leaflet: LeafletFiles, basemap: BaseMap?) {
        self.leaflet = leaflet
        dashboard = Asset(DashboardPage.html(basemap: basemap), type: Self.html)
    }

    /// The policy of every page: this origin only, and the base map's origin for images when
    /// one is set.
    static func contentSecurityPolicy(basemap: BaseMap?) -> String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:\(basemap.map { " " + $0.origin } ?? ""); "
            + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    /// A file compiled into the binary, kept as the buffer every response shares, plain and
    /// gzip-compressed (each with its own ETag, as two representations of one resource).
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        let etag: String
        let gzip: (body: ByteBuffer, etag: String)?

        init(_ bytes: [UInt8], type: String) {
            body = ByteBuffer(bytes: bytes)
            contentType = type
            etag = Conditional.etag(bytes: bytes)
            gzip = Gzip.compress(bytes).map { (ByteBuffer(bytes: $0), Conditional.etag(bytes: $0)) }
        }

        init(_ text: String, type: String) {
            self.init(Array(text.utf8), type: type)
        }
    }

    private static let javaScript = "text/javascript; charset=utf-8"
    private static let css = "text/css; charset=utf-8"
    private static let html = "text/html; charset=utf-8"

    static let domScript = Asset(PageAssets.domScript, type: javaScript)
    static let script = Asset(PageAssets.dashboardScript, type: javaScript)
    static let style = Asset(PageAssets.style, type: css)
    static let ogcStyle = Asset(PageAssets.ogcStyle, type: css)
    static let icon = Asset(PageAssets.icon, type: "image/svg+xml")
    static let serviceWorker = Asset(PageAssets.serviceWorker, type: javaScript)
    static let manifest = Asset(PageAssets.manifest, type: "application/manifest+json")
    static let reportScript = Asset(PageAssets.reportScript, type: javaScript)
    static let outboxScript = Asset(PageAssets.outboxScript, type: javaScript)
    static let reportForm = Asset(ReportPage.html, type: html)
    static let receipt = Asset(ReceiptPage.html, type: html)
    static let adminScript = Asset(PageAssets.adminScript, type: javaScript)
    static let admin = Asset(AdminPage.html, type: html)

    /// The pages besides the dashboard (which is the landing route's HTML form): HTML for people,
    /// not API operations.
    static let pagePaths: Set<String> = ["/report", "/report/receipt", "/admin"]
    /// The files at the root that browsers look for there (the report form's worker and manifest):
    /// pages' files like those under /assets, not API operations.
    static let rootFiles: Set<String> = ["/sw.js", "/manifest.webmanifest"]

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("assets/dom.js") { request, _ in Self.send(Self.domScript, request) }
        router.get("assets/dashboard.js") { request, _ in Self.send(Self.script, request) }
        router.get("assets/report.js") { request, _ in Self.send(Self.reportScript, request) }
        router.get("assets/outbox.js") { request, _ in Self.send(Self.outboxScript, request) }
        router.get("report") { request, _ in Self.send(Self.reportForm, request) }
        router.get("report/receipt") { request, _ in Self.send(Self.receipt, request) }
        router.get("assets/admin.js") { request, _ in Self.send(Self.adminScript, request) }
        router.get("admin") { request, _ in Self.send(Self.admin, request) }
        router.get("assets/pages.css") { request, _ in Self.send(Self.style, request) }
        router.get("assets/ogc.css") { request, _ in Self.send(Self.ogcStyle, request) }
        router.get("assets/icon.svg") { request, _ in Self.send(Self.icon, request) }
        router.get("manifest.webmanifest") { request, _ in Self.send(Self.manifest, request) }
        // At the root, so that it may be registered for /report (a worker's scope lies under its own
        // folder). Kept by the browser's HTTP cache for a day: the
        // browser's update check on each visit then costs no request (the pages it keeps are
        // fetched network first, so they change at once).
        router.get("sw.js") { request, _ in
            Self.send(plain: (Self.serviceWorker.body, Self.serviceWorker.etag), gzip: Self.serviceWorker.gzip,
                      contentType: Self.serviceWorker.contentType, cacheControl: "max-age=86400", request)
        }
        router.get("assets/leaflet/**") { request, context in
            let name = context.parameters.getCatchAll().joined(separator: "/")
            guard let file = leaflet.files[name] else {
                throw APIError.notFound(leaflet.isInstalled ? "no such Leaflet file" : "Leaflet is not installed on the server (apt-get install libjs-leaflet)")
            }
            return Self.send(plain: file.plain, gzip: file.gzip, contentType: file.contentType, cacheControl: "public, max-age=86400", request)
        }
    }

    /// An embedded file, revalidated by ETag (it changes only with the binary).
    static func send(_ asset: Asset, _ request: Request) -> Response {
        send(plain: (asset.body, asset.etag), gzip: asset.gzip, contentType: asset.contentType, cacheControl: "no-cache", request)
    }

    /// A file gzip-compressed when the browser takes it and a compressed form exists.
    private static func send(plain: (body: ByteBuffer, etag: String), gzip: (body: ByteBuffer, etag: String)?, contentType: String,
                             cacheControl: String, _ request: Request) -> Response {
        let takesGzip = (request.headers[.acceptEncoding] ?? "").contains("gzip")
        let compressed = takesGzip ? gzip : nil
        var response = send(compressed ?? plain, contentType: contentType, cacheControl: cacheControl, request)
        response.headers[.vary] = "Accept-Encoding"
        if compressed != nil, response.status == .ok { response.headers[.contentEncoding] = "gzip" }
        return response
    }

    private static func send(_ file: (body: ByteBuffer, etag: String), contentType: String, cacheControl: String, _ request: Request) -> Response {
        var response = Conditional.response(request, body: file.body, contentType: contentType, etag: file.etag, cacheControl: cacheControl)
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}

extension HTTPField.Name {
    static let contentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

extension HTTPField.Name {
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
}
