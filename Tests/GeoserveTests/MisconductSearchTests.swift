import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import geoserve

@Suite("public misconduct search")
struct MisconductSearchTests {
    @Test("only verified reports appear, with only the public fields, by radius and by area")
    func search() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (_, verified, _) = try await client.submit(Drafts.misconduct())
            _ = try await client.submit(Drafts.misconduct())   // stays pending
            let id = verified["id"] as? String ?? ""
            _ = try await client.json(.post, "/v1/reports/\(id)/transitions", token: admin, body: #"{"transition":"verify"}"#)
            let (raw, text) = try await client.execute(uri: "/v1/misconduct/near?lon=-87.6003&lat=41.7894&radius_m=500&layer=halls", method: .get) { r in
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
