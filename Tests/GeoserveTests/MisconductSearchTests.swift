import GeoCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GeoserveApp

@Suite("public misconduct search")
struct MisconductSearchTests {
    @Test("only published verified reports appear, with only the public fields, by radius and by area; the published count matches the list")
    func search() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (_, verified, _) = try await client.submit(Drafts.misconduct())
            _ = try await client.submit(Drafts.misconduct())   // stays pending
            let id = verified["id"] as? String ?? ""
            _ = try await client.json(.post, "/v1/reports/\(id)/transitions", token: admin, body: #"{"transition":"verify"}"#)
            // Verified but not yet published: neither the list nor the count has it.
            let (_, before) = try await client.json(.get, "/v1/misconduct?layer=halls&area=H01")
            #expect((before["reports"] as? [[String: Any]])?.isEmpty == true)
            try await client.publish(admin)
            let (_, _, hall) = try await client.getJSON("/collections/halls/items/H01?kind=misconduct")
            #expect((hall["properties"] as? [String: Any])?["verified_all"] as? Int == 1)
            let (raw, text) = try await client.execute(uri: "/v1/misconduct/near?lon=-87.6003&lat=41.7894&radius_m=1000&layer=halls", method: .get) { r in
                (r, String(buffer: r.body))
            }
            #expect(raw.status == .ok && raw.headers[.cacheControl] == "public, max-age=60")
            let body = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            let reports = body["reports"] as? [[String: Any]] ?? []
            #expect(reports.count == 1)
            #expect(reports.first.map { Set($0.keys) } == ["officerDescription", "incidentDescription", "occurredOn", "layer", "area"])
            #expect(reports.first?["area"] as? String == "H01" && reports.first?["occurredOn"] as? String == "2026-11-02")
            for secret in ["J. Doe", "4711", "555-0100", "saw it", "Black", "female", "-87.6003", "41.7894", id] {
                #expect(!text.contains(secret), "public search leaks \(secret)")
            }
            let (_, byArea) = try await client.json(.get, "/v1/misconduct?layer=halls&area=H01")
            #expect((byArea["reports"] as? [[String: Any]])?.count == 1)
            let (_, far) = try await client.json(.get, "/v1/misconduct/near?lon=-87.70&lat=41.90&radius_m=1000")
            #expect((far["reports"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test("a page of the search is the same before and after a verification that is not yet published, by area and by circle")
    func pagingAroundAnUnpublishedVerification() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            func verify(_ body: String) async throws {
                let (_, created, _) = try await client.submit(body)
                let (status, _) = try await client.json(.post, "/v1/reports/\(created["id"] as? String ?? "")/transitions", token: admin,
                                                         body: #"{"transition":"verify"}"#)
                #expect(status == .ok)
            }
            for _ in 0..<5 { try await verify(Drafts.misconduct()) }
            try await client.publish(admin)
            let pages = ["/v1/misconduct?layer=halls&area=H01&limit=4", "/v1/misconduct/near?lon=-87.6003&lat=41.7894&radius_m=1000&limit=4"]
            // A page as comparable text: each report's fields in order.
            func listed(_ body: [String: Any]) -> [String] {
                (body["reports"] as? [[String: Any]] ?? []).map { r in r.keys.sorted().map { "\($0)=\(r[$0] ?? "")" }.joined(separator: ";") }
            }
            var before: [[String]] = []
            for page in pages { before.append(listed(try await client.json(.get, page).1)) }
            // A newer report, verified and not published: it would sort first.
            let newer = Drafts.misconduct().replacingOccurrences(of: "2026-11-02T21:30:00Z", with: "2026-11-05T21:30:00Z")
            try await verify(newer)
            for (page, seen) in zip(pages, before) {
                let (_, now) = try await client.json(.get, page)
                #expect((now["reports"] as? [[String: Any]])?.count == 4, "\(page)")
                #expect(listed(now) == seen, "\(page) changed before a publication")
            }
            // Published, it leads the page.
            try await client.publish(admin)
            for page in pages {
                let (_, now) = try await client.json(.get, page)
                #expect((now["reports"] as? [[String: Any]])?.first?["occurredOn"] as? String == "2026-11-05", "\(page)")
            }
        }
    }

    @Test("binary-searching the circle's edge finds only the report's 1 km cell, not its point")
    func nearSearchCannotPinALocation() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        // A point near a corner of its cell, so that the cell's centre lies far from it.
        let cell = CoarseCell(lon: -87.6003, lat: 41.7894, size: MisconductSearchController.cellSize)
        let truth = (lon: cell.centre.lon + 0.45 * Self.cellWidthDegrees(cell), lat: cell.centre.lat + 0.45 * Self.cellHeightDegrees(cell))
        #expect(CoarseCell(lon: truth.lon, lat: truth.lat, size: cell.size) == cell)
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let draft = Drafts.misconduct().replacingOccurrences(of: #""lon":-87.6003,"lat":41.7894"#, with: #""lon":\#(truth.lon),"lat":\#(truth.lat)"#)
            let (status, created, _) = try await client.submit(draft)
            #expect(status == .created)
            _ = try await client.json(.post, "/v1/reports/\(created["id"] as? String ?? "")/transitions", token: admin, body: #"{"transition":"verify"}"#)
            try await client.publish(admin)
            let radius = 300.0
            func found(_ lon: Double, _ lat: Double) async throws -> Bool {
                let (_, body) = try await client.json(.get, "/v1/misconduct/near?lon=\(lon)&lat=\(lat)&radius_m=\(radius)")
                return (body["reports"] as? [[String: Any]])?.isEmpty == false
            }
            // The attacker starts from a circle that matches and walks each edge in by bisection.
            let start = cell.centre
            #expect(try await found(start.lon, start.lat))
            func edge(_ inside: Double, _ outside: Double, _ at: (Double) -> (Double, Double)) async throws -> Double {
                var (a, b) = (inside, outside)
                for _ in 0..<40 {
                    let m = (a + b) / 2
                    let (x, y) = at(m)
                    if try await found(x, y) { a = m } else { b = m }
                }
                return a
            }
            let far = 0.05
            let east = try await edge(start.lon, start.lon + far) { ($0, start.lat) }
            let west = try await edge(start.lon, start.lon - far) { ($0, start.lat) }
            let north = try await edge(start.lat, start.lat + far) { (start.lon, $0) }
            let south = try await edge(start.lat, start.lat - far) { (start.lon, $0) }
            let estimate = ((east + west) / 2, (north + south) / 2)
            let miss = greatCircleMetres(lon1: estimate.0, lat1: estimate.1, lon2: truth.lon, lat2: truth.lat)
            let toCentre = greatCircleMetres(lon1: estimate.0, lat1: estimate.1, lon2: cell.centre.lon, lat2: cell.centre.lat)
            #expect(toCentre < 1, "the search reveals the cell's centre and nothing finer")
            #expect(miss >= 500, "the attacker's best estimate is \(miss) m from the report")
        }
    }

    static func cellHeightDegrees(_ cell: CoarseCell) -> Double { cell.size / (6_371_008.8 * .pi / 180) }
    static func cellWidthDegrees(_ cell: CoarseCell) -> Double { cellHeightDegrees(cell) / cos(cell.centre.lat * .pi / 180) }

    @Test("bad searches are refused with the field; tiny radii are refused so searches cannot pin a location")
    func badSearches() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let badLatitude = try await client.json(.get, "/v1/misconduct/near?lon=-87.6&lat=95&radius_m=500")
            #expect(errorField(badLatitude.1) == "lat")
            let tinyRadius = try await client.json(.get, "/v1/misconduct/near?lon=-87.6&lat=41.8&radius_m=10")
            #expect(errorField(tinyRadius.1) == "radius_m")
            let noRadius = try await client.json(.get, "/v1/misconduct/near?lon=-87.6&lat=41.8")
            #expect(errorField(noRadius.1) == "radius_m")
            let neither = try await client.json(.get, "/v1/misconduct")
            #expect(neither.0 == .badRequest && errorField(neither.1) == "layer")
            let layerOnly = try await client.json(.get, "/v1/misconduct?layer=halls")
            #expect(layerOnly.0 == .badRequest && errorField(layerOnly.1) == "area")
            // Unknown parameters are refused here too, not ignored.
            #expect(try await client.json(.get, "/v1/misconduct?layer=halls&area=H01&sort=name").0 == .badRequest)
        }
    }
}
