import GeoCore
import DomainKernel
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import GeoserveApp

extension TestClientProtocol {
    /// GETs a URI and returns status, headers and the parsed JSON object.
    func getJSON(_ uri: String, headers: HTTPFields = [:]) async throws -> (HTTPResponse.Status, HTTPFields, [String: Any]) {
        try await execute(uri: uri, method: .get, headers: headers) { r in
            (r.status, r.headers, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:])
        }
    }
}

/// The path and query of an absolute link, for following it with the test client.
func relative(_ href: String) -> String {
    guard let url = URL(string: href) else { return href }
    return url.path + (url.query.map { "?" + $0 } ?? "")
}

func links(_ body: [String: Any]) -> [(rel: String, type: String, href: String)] {
    (body["links"] as? [[String: Any]] ?? []).map { ($0["rel"] as? String ?? "", $0["type"] as? String ?? "", $0["href"] as? String ?? "") }
}

func featureIDs(_ body: [String: Any]) -> [String] {
    (body["features"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
}

@Suite("OGC API – Features")
struct FeaturesTests {
    @Test("landing page, conformance and collections carry the links and classes OGC Part 1 requires")
    func documents() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let (s, h, landing) = try await client.getJSON("/")
            #expect(s == .ok)
            #expect(h[.contentType] == "application/json")
            let rels = Set(links(landing).map(\.rel))
            #expect(rels.isSuperset(of: ["self", "service-desc", "conformance", "data"]))
            let (_, _, conformance) = try await client.getJSON("/conformance")
            let classes = conformance["conformsTo"] as? [String] ?? []
            #expect(classes.contains("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"))
            #expect(classes.contains("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson"))
            let (_, _, collections) = try await client.getJSON("/collections")
            let list = collections["collections"] as? [[String: Any]] ?? []
            #expect(list.compactMap { $0["id"] as? String } == ["halls", "testing-sites", "zones"])
            let halls = list.first { $0["id"] as? String == "halls" } ?? [:]
            #expect(halls["itemType"] as? String == "feature")
            let bbox = ((halls["extent"] as? [String: Any])?["spatial"] as? [String: Any])?["bbox"] as? [[Double]]
            #expect(bbox?.first?.count == 4)
            #expect(links(halls).contains { $0.rel == "items" && $0.type == "application/geo+json" })
            let (one, _, _) = try await client.getJSON("/collections/halls")
            #expect(one == .ok)
            let (missing, _, error) = try await client.getJSON("/collections/nowhere")
            #expect(missing == .notFound)
            #expect(errorCode(error) == "not_found")
        }
    }

    @Test("following next links visits every feature exactly once; prev leads back; counts are right")
    func paging() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            var uri = "/collections/halls/items?limit=5"
            var seen: [String] = []
            var pages = 0
            var lastPage: [String: Any] = [:]
            while true {
                let (s, h, page) = try await client.getJSON(uri)
                #expect(s == .ok)
                #expect(h[.contentType] == "application/geo+json")
                #expect(page["type"] as? String == "FeatureCollection")
                #expect(page["numberMatched"] as? Int == 42)
                #expect(page["numberReturned"] as? Int == featureIDs(page).count)
                seen += featureIDs(page)
                pages += 1
                lastPage = page
                guard let next = links(page).first(where: { $0.rel == "next" }) else { break }
                uri = relative(next.href)
                #expect(pages < 20)
            }
            #expect(pages == 9)
            #expect(seen.count == 42)
            #expect(Set(seen).count == 42)
            #expect(seen == seen.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            // The last page's prev link returns the page before it.
            let prev = try #require(links(lastPage).first { $0.rel == "prev" })
            let (_, _, before) = try await client.getJSON(relative(prev.href))
            #expect(featureIDs(before) == Array(seen[35..<40]))
            // A limit above the maximum is clamped, not refused.
            let (s, _, all) = try await client.getJSON("/collections/halls/items?limit=999999999")
            #expect(s == .ok)
            #expect(featureIDs(all).count == 42)
            #expect(!links(all).contains { $0.rel == "next" })
        }
    }

    @Test("bad parameters answer 400 with the parameter named; undeclared parameters are refused")
    func badParameters() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            for (query, field) in [("limit=0", "limit"), ("limit=ten", "limit"), ("bbox=1,2,3", "bbox"), ("bbox=-87,42,-88,91", "bbox"),
                                   ("bbox=0,0,200,1", "bbox"), ("datetime=2026-02-30", "datetime"), ("datetime=2026-11-10/yesterday", "datetime"),
                                   ("cursor=zzz", "cursor"), ("kind=parking", "kind"), ("basis=whenever", "basis"), ("color=red", "color"),
                                   ("f=xml", "f")] {
                let (s, _, body) = try await client.getJSON("/collections/halls/items?\(query)")
                #expect(s == .badRequest, "\(query)")
                #expect(errorField(body) == field, "\(query)")
            }
            let (s, _, _) = try await client.getJSON("/collections/halls/items/H01?limit=3")
            #expect(s == .badRequest)
        }
    }

    @Test("bbox keeps features whose geometry meets the box, not merely their bounding box; across the antimeridian too")
    func bbox() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            // Inside the bounding box of the L-shaped hall H03 but in its notch.
            let (_, _, notch) = try await client.getJSON("/collections/halls/items?bbox=-87.5943,41.7890,-87.5941,41.7891")
            #expect(featureIDs(notch) == [])
            #expect(notch["numberMatched"] as? Int == 0)
            // Touching the hall's leg.
            let (_, _, leg) = try await client.getJSON("/collections/halls/items?bbox=-87.5946,41.7890,-87.5941,41.7891")
            #expect(featureIDs(leg) == ["H03"])
            // A box crossing the antimeridian that reaches from 170°E to 80°W holds the campus; one to 100°W does not.
            let (_, _, wide) = try await client.getJSON("/collections/halls/items?bbox=170,-90,-80,90&limit=100")
            #expect(featureIDs(wide).count == 42)
            let (_, _, none) = try await client.getJSON("/collections/halls/items?bbox=170,-90,-100,90")
            #expect(featureIDs(none).isEmpty)
            // The bbox stays in the paging links.
            let (_, _, paged) = try await client.getJSON("/collections/halls/items?bbox=-87.61,41.78,-87.58,41.80&limit=2")
            let next = try #require(links(paged).first { $0.rel == "next" })
            #expect(next.href.contains("bbox=-87.61,41.78,-87.58,41.8"))
        }
    }

    @Test("one feature by id; coordinates at six decimals and counter-clockwise exterior rings")
    func item() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let (s, h, feature) = try await client.getJSON("/collections/halls/items/H03")
            #expect(s == .ok)
            #expect(h[.contentType] == "application/geo+json")
            #expect(feature["id"] as? String == "H03")
            #expect((feature["properties"] as? [String: Any])?["name"] as? String == "Cedar Tower")
            #expect(links(feature).contains { $0.rel == "collection" })
            // The halls layer mixes polygons and a multipolygon, so every hall is served as a MultiPolygon.
            let ring = try #require(((feature["geometry"] as? [String: Any])?["coordinates"] as? [[[[Double]]]])?.first?.first)
            for p in ring {
                for v in p { #expect(abs(v * 1e6 - (v * 1e6).rounded()) < 1e-6) }
            }
            var twiceArea = 0.0
            for k in 0..<(ring.count - 1) { twiceArea += ring[k][0] * ring[k + 1][1] - ring[k + 1][0] * ring[k][1] }
            #expect(twiceArea > 0)
            let (missing, _, _) = try await client.getJSON("/collections/halls/items/H99")
            #expect(missing == .notFound)
            let html = try await client.execute(uri: "/collections/halls/items/H03?f=html", method: .get) { $0 }
            #expect(html.headers[.contentType] == "text/html; charset=utf-8")
            #expect(String(buffer: html.body).contains("Cedar Tower"))
            // Asked for as a page, a refusal is a page: status kept, the message escaped, a way on.
            for (uri, status, says) in [("/collections/halls/items/H99%3Cb%3E?f=html", HTTPResponse.Status.notFound, "no feature &quot;H99&lt;b&gt;&quot;"),
                                        ("/collections/nowhere/items?f=html", .notFound, "no collection &quot;nowhere&quot;"),
                                        ("/collections/halls/items?f=html&limit=0", .badRequest, "limit"),
                                        // A refusal of the statistics service, not of the query table: a page too.
                                        ("/collections/halls/items?f=html&basis=verified", .badRequest, "basis is for verifiers")] {
                let page = try await client.execute(uri: uri, method: .get) { $0 }
                let text = String(buffer: page.body)
                #expect(page.status == status, "\(uri)")
                #expect(page.headers[.contentType] == "text/html; charset=utf-8", "\(uri)")
                #expect(text.hasPrefix("<!doctype html>") && text.contains(says) && text.contains("/collections?f=html\">All collections"), "\(uri): \(text)")
                #expect(!text.contains("<b>"))
            }
            // An id is read percent-decoded, as the items' links encode it.
            let (encoded, _, h03) = try await client.getJSON("/collections/halls/items/H%303")
            #expect(encoded == .ok && h03["id"] as? String == "H03")
            let byAccept = try await client.execute(uri: "/collections/halls/items/H99", method: .get, headers: [.accept: "text/html"]) { $0 }
            #expect(byAccept.status == .notFound && byAccept.headers[.contentType] == "text/html; charset=utf-8")
            // A page without areas says so and leads back to all of them.
            let none = try await client.execute(uri: "/collections/halls/items?f=html&bbox=10,10,11,11", method: .get) { String(buffer: $0.body) }
            #expect(none.contains("No area of this layer matches these parameters") && none.contains("/collections/halls/items?f=html\">All its areas"))
            #expect(!none.contains("<table"))
            let json = try await client.execute(uri: "/collections/halls/items/H99?f=json", method: .get, headers: [.accept: "text/html"]) { $0 }
            #expect(json.status == .notFound && json.headers[.contentType] == "application/json; charset=utf-8")
        }
    }

    @Test("ETag and 304: the same publication answers 304; a verification leaves the public ETag alone, a publication changes it at once")
    func etags() async throws {
        var service = try await TestService()
        defer { service.remove() }
        // No poll within the test: only the verification handler's own notice can move the version.
        service.configuration.dataVersionInterval = .seconds(3600)
        try await service.run { client in
            let uri = "/collections/halls/items?limit=50"
            let (s1, h1, _) = try await client.getJSON(uri)
            #expect(s1 == .ok)
            let etag = try #require(h1[.eTag])
            #expect(h1[.cacheControl] == "public, no-cache")
            let again = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) { $0 }
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            #expect(again.headers[.eTag] == etag)
            // Another query has another ETag.
            let (_, h2, _) = try await client.getJSON("/collections/halls/items?limit=49")
            #expect(h2[.eTag] != etag)
            // A verification moves the data version but not the public numbers: anyone reading
            // before and after learns nothing, not even that a change was made.
            let admin = try await client.login(TestService.adminEmail)
            let (_, created, _) = try await client.submit(Drafts.covid())
            let id = created["id"] as? String ?? ""
            let (verified, _) = try await client.json(.post, "/v1/reports/\(id)/transitions", token: admin, body: #"{"transition":"verify"}"#)
            #expect(verified == .ok)
            let unchanged = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) { $0 }
            #expect(unchanged.status == .notModified)
            // A publication is a new set of public numbers: the old ETag no longer matches.
            try await client.publish(admin)
            let after = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) { $0 }
            #expect(after.status == .ok)
            #expect(after.headers[.eTag] != etag)
        }
    }

    @Test("CORS: any origin by default with ETag and Link exposed; a configured list echoes only its origins")
    func cors() async throws {
        var service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let r = try await client.execute(uri: "/collections/halls/items?limit=1", method: .get, headers: [.origin: "https://dash.example"]) { $0 }
            #expect(r.headers[.accessControlAllowOrigin] == "*")
            #expect(r.headers[.accessControlExposeHeaders]?.contains("ETag") == true)
            #expect(r.headers[.accessControlExposeHeaders]?.contains("Link") == true)
            // Intake is not open to other web sites by default: no origin is allowed to file reports.
            let refused = try await client.execute(uri: "/v1/reports", method: .options,
                                                   headers: [.origin: "https://dash.example", .accessControlRequestMethod: "POST"]) { $0 }
            #expect(refused.headers[.accessControlAllowOrigin] == nil)
            let receipt = try await client.execute(uri: "/v1/reports/x", method: .get, headers: [.origin: "https://dash.example"]) { $0 }
            #expect(receipt.headers[.accessControlAllowOrigin] == nil)
        }
        service.configuration.intakeOrigins = ["https://form.example"]
        try await service.run { client in
            let pre = try await client.execute(uri: "/v1/reports", method: .options,
                                               headers: [.origin: "https://form.example", .accessControlRequestMethod: "POST"]) { $0 }
            #expect(pre.status == .noContent)
            #expect(pre.headers[.accessControlAllowOrigin] == "https://form.example")
            #expect(pre.headers[.accessControlAllowHeaders]?.contains("Idempotency-Key") == true)
            let other = try await client.execute(uri: "/v1/reports", method: .options,
                                                 headers: [.origin: "https://dash.example", .accessControlRequestMethod: "POST"]) { $0 }
            #expect(other.headers[.accessControlAllowOrigin] == nil)
        }
        service.configuration.corsOrigins = ["https://dash.example"]
        try await service.run { client in
            let ok = try await client.execute(uri: "/collections", method: .get, headers: [.origin: "https://dash.example"]) { $0 }
            #expect(ok.headers[.accessControlAllowOrigin] == "https://dash.example")
            #expect(ok.headers[values: .vary].joined(separator: ",").contains("Origin"))
            let other = try await client.execute(uri: "/collections", method: .get, headers: [.origin: "https://evil.example"]) { $0 }
            #expect(other.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test("which areas contain a point, and the nearest testing sites")
    func places() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            // Inside hall H01 (and its zone).
            let (s, _, containing) = try await client.getJSON("/v1/areas/containing?lon=-87.6003&lat=41.7894")
            #expect(s == .ok)
            let areas = containing["areas"] as? [[String: Any]] ?? []
            #expect(areas.map { "\($0["layer"] ?? "")/\($0["id"] ?? "")" }.contains("halls/H01"))
            #expect(areas.contains { $0["layer"] as? String == "zones" })
            let (_, _, nowhere) = try await client.getJSON("/v1/areas/containing?lon=10&lat=10")
            #expect((nowhere["areas"] as? [Any])?.isEmpty == true)
            let (_, _, nearest) = try await client.getJSON("/v1/places/nearest?lon=-87.6003&lat=41.7894&k=3")
            let places = nearest["places"] as? [[String: Any]] ?? []
            #expect(places.count == 3)
            let distances = places.compactMap { $0["distanceMetres"] as? Double }
            #expect(distances == distances.sorted())
            let (bad, _, body) = try await client.getJSON("/v1/places/nearest?lon=200&lat=0")
            #expect(bad == .badRequest)
            #expect(errorField(body) == "lon")
            let (unknown, _, _) = try await client.getJSON("/v1/areas/containing?lon=1&lat=1&radius=3")
            #expect(unknown == .badRequest)
        }
    }

    @Test("a layer another process publishes is served and used by intake once the watcher polls, its rings counter-clockwise")
    func publishedElsewhere() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            #expect(try await client.getJSON("/collections/blocks/items").0 == .notFound)
            // A second connection, as the CLI's import-areas would be.
            let other = try openStore(service.configuration.database)
            // Wound clockwise, against RFC 7946's rule, to see the service turn it.
            let ring = [(-87.61, 41.78), (-87.61, 41.79), (-87.60, 41.79), (-87.60, 41.78), (-87.61, 41.78)].map { try! Position(lon: $0.0, lat: $0.1) }
            try await other.importLayer(LayerImport(layer: "blocks", kind: .areas, source: nil,
                                                    areas: [StoredArea(id: "B1", name: nil, properties: [:], geometry: .polygon(try Polygon(rings: [ring])))]))
            // The watcher polls every 250 ms; the bound leaves room for a loaded test machine.
            #expect(try await eventually(within: 10) { try await client.getJSON("/collections/blocks/items").0 == .ok })
            // Intake places reports in it too: the misconduct draft's location lies inside B1.
            let (created, report, _) = try await client.submit(Drafts.misconduct())
            #expect(created == .created)
            #expect((report["areas"] as? [[String: Any]])?.contains { $0["layer"] as? String == "blocks" && $0["areaID"] as? String == "B1" } == true)
            let (_, _, body) = try await client.getJSON("/collections/blocks/items")
            #expect((body["features"] as? [[String: Any]])?.count == 1)
            let (_, _, feature) = try await client.getJSON("/collections/blocks/items/B1")
            let exterior = try #require(((feature["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first)
            var twiceArea = 0.0
            for k in 0..<(exterior.count - 1) { twiceArea += exterior[k][0] * exterior[k + 1][1] - exterior[k + 1][0] * exterior[k][1] }
            #expect(twiceArea > 0, "exterior rings are served counter-clockwise")
        }
    }

    @Test("a layer mixing Polygon and MultiPolygon is served as MultiPolygon; its JSON Schema types every property and is linked as describedBy")
    func schemaAndGeometryType() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let (_, _, page) = try await client.getJSON("/collections/halls/items?limit=100")
            let types = Set((page["features"] as? [[String: Any]] ?? []).compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String })
            // The demo halls are polygons but for H17, a two-part hall.
            #expect(types == ["MultiPolygon"])
            let (_, _, zones) = try await client.getJSON("/collections/zones/items")
            #expect(Set((zones["features"] as? [[String: Any]] ?? []).compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String }) == ["Polygon"])
            // Statistics are flat numeric properties, and the schema says so.
            let first = try #require((page["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])
            #expect(first["verified_14d"] is Int && first["statistics"] == nil)
            let (_, _, collection) = try await client.getJSON("/collections/halls")
            let described = (collection["links"] as? [[String: Any]] ?? []).first { $0["rel"] as? String == "describedBy" }
            #expect(described?["type"] as? String == "application/schema+json")
            let (status, headers, schema) = try await client.getJSON(relative(described?["href"] as? String ?? ""))
            #expect(status == .ok && headers[.contentType] == "application/schema+json")
            let top = schema["properties"] as? [String: Any] ?? [:]
            #expect((top["geometry"] as? [String: Any])?["format"] as? String == "geometry-multipolygon")
            let fields = ((top["properties"] as? [String: Any])?["properties"] as? [String: Any]) ?? [:]
            for window in ["7d", "14d", "28d", "all"] {
                #expect((fields["verified_\(window)"] as? [String: Any])?["type"] as? String == "integer", "\(window)")
                #expect((fields["rate_\(window)"] as? [String: Any])?["type"] as? String == "number", "\(window)")
            }
            #expect((fields["capacity"] as? [String: Any])?["type"] as? String == "integer")
            #expect((fields["name"] as? [String: Any])?["type"] as? String == "string")
            // Every statistics property a feature carries is in the schema.
            for key in first.keys { #expect(fields[key] != nil, "\(key)") }
        }
    }
}
