import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The pages people open in a browser and the files they load: the dashboard (the landing
/// page's HTML form, see `FeaturesController.landing`), its script and style, and Leaflet from
/// the system package. Every page is sent with a Content-Security-Policy that allows only this
/// origin's scripts, styles and images: no inline script or style anywhere.
struct PagesController {
    let leaflet: LeafletFiles

    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let etag: String

        init(_ text: String, type: String) {
            bytes = Array(text.utf8)
            contentType = type
            etag = "\"" + SHA256.hash(data: bytes).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
        }
    }

    static let script = Asset(DashboardScript.js, type: "text/javascript; charset=utf-8")
    static let style = Asset(PageStyle.css, type: "text/css; charset=utf-8")
    static let ogcStyle = Asset(PageStyle.ogc, type: "text/css; charset=utf-8")
    static let dashboard = Asset(DashboardPage.html, type: "text/html; charset=utf-8")

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("assets/dashboard.js") { request, _ in Self.send(Self.script, request) }
        router.get("assets/pages.css") { request, _ in Self.send(Self.style, request) }
        router.get("assets/ogc.css") { request, _ in Self.send(Self.ogcStyle, request) }
        router.get("assets/leaflet/**") { request, context in
            let name = context.parameters.getCatchAll().joined(separator: "/")
            guard let file = leaflet.files[name] else {
                throw APIError.notFound(leaflet.isInstalled ? "no such Leaflet file" : "Leaflet is not installed on the server (apt-get install libjs-leaflet)")
            }
            var headers: HTTPFields = [.contentType: file.contentType, .eTag: file.etag, .cacheControl: "public, max-age=86400",
                                       .xContentTypeOptions: "nosniff", .vary: "Accept-Encoding"]
            if request.headers[.ifNoneMatch] == file.etag { return Response(status: .notModified, headers: headers) }
            if let gzip = file.gzip, (request.headers[.acceptEncoding] ?? "").contains("gzip") {
                headers[.contentEncoding] = "gzip"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: gzip)))
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
    }

    /// The dashboard page, for the landing route's HTML form (`PageSecurityMiddleware` adds the
    /// policy headers).
    static func dashboardResponse(_ request: Request) -> Response {
        send(dashboard, request)
    }

    /// An embedded file, revalidated by ETag (it changes only with the binary).
    static func send(_ asset: Asset, _ request: Request) -> Response {
        let headers: HTTPFields = [.contentType: asset.contentType, .eTag: asset.etag, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"]
        if request.headers[.ifNoneMatch] == asset.etag { return Response(status: .notModified, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
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
