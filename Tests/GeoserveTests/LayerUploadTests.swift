import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import GeoserveApp

@Suite("layer uploads")
struct LayerUploadTests {
    /// A square of `size` degrees at (lon, lat) as a GeoJSON feature.
    static func square(_ id: String, lon: Double, lat: Double, size: Double = 0.002, ring: String? = nil) -> String {
        let r = ring ?? "[[\(lon),\(lat)],[\(lon + size),\(lat)],[\(lon + size),\(lat + size)],[\(lon),\(lat + size)],[\(lon),\(lat)]]"
        return #"{"type":"Feature","id":"\#(id)","properties":{"name":"District \#(id)"},"geometry":{"type":"Polygon","coordinates":[\#(r)]}}"#
    }

    static func collection(_ features: [String]) -> String { #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"# }

    static func upload(_ client: some TestClientProtocol, _ path: String, _ body: String, token: String) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(uri: path, method: .post, headers: [.authorization: "Bearer \(token)", .contentType: "application/geo+json"],
                                 body: ByteBuffer(string: body)) { r in
            (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:])
        }
    }

    @Test("a layer with a rejected feature is refused with the validation report and nothing stored; a valid one is staged, then published and served")
    func stageAndPublish() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            // A bow tie is repaired; a feature without an id cannot be stored.
            let bowtie = "[[-87.60,41.79],[-87.598,41.792],[-87.598,41.79],[-87.60,41.792],[-87.60,41.79]]"
            let unnamed = Self.square("", lon: -87.59, lat: 41.79)
            let bad = Self.collection([Self.square("D1", lon: -87.602, lat: 41.788), Self.square("D2", lon: 0, lat: 0, ring: bowtie), unnamed])
            let (s1, refused) = try await Self.upload(client, "/v1/layers/districts/versions", bad, token: admin)
            #expect(s1 == .unprocessableContent && refused["version"] == nil && refused["rejectedCount"] as? Int == 1)
            let problems = refused["problems"] as? [[String: Any]] ?? []
            #expect(problems.map { $0["outcome"] as? String ?? "" } == ["repaired", "rejected"] && problems.map { $0["index"] as? Int ?? -1 } == [1, 2])
            #expect(try await client.json(.get, "/v1/layers").1["layers"].map { ($0 as? [[String: Any]])?.contains { $0["name"] as? String == "districts" } } == false,
                    "nothing stored")

            // With skip_invalid the rest is staged: not served until published.
            let (s2, staged) = try await Self.upload(client, "/v1/layers/districts/versions?skip_invalid=true", bad, token: admin)
            #expect(s2 == .created && staged["version"] as? Int == 1 && staged["published"] as? Bool == false && staged["featureCount"] as? Int == 2)
            #expect(try await client.json(.get, "/collections/districts/items").0 == .notFound)
            let (s3, published) = try await client.json(.post, "/v1/layers/districts/versions/1/publish", token: admin)
            #expect(s3 == .ok && published["version"] as? Int == 1)
            let served = try await eventually { try await client.json(.get, "/collections/districts/items").0 == .ok }
            #expect(served)
            #expect(try await client.json(.post, "/v1/layers/districts/versions/9/publish", token: admin).0 == .notFound)
            #expect(try await client.json(.post, "/v1/layers/districts/versions/x/publish", token: admin).0 == .badRequest)
        }
        let store = try await openKeyedStore(service.configuration.database)
        let uploads = try await store.events(action: "layer-upload").count
        let publications = try await store.events(action: "layer-publish").count
        #expect(uploads == 1 && publications == 1)
    }

    @Test("a new version published at once re-assigns the reports; bad documents, names, kinds and sizes are refused")
    func publishAtOnceAndRefusals() async throws {
        var service = try await TestService()
        defer { service.remove() }
        service.configuration.maxLayerUploadBytes = 4096
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let verifier = try await client.account("verifier", admin: admin).token
            #expect(try await Self.upload(client, "/v1/layers/zones/versions", Self.collection([Self.square("Z9", lon: -87.6, lat: 41.79)]), token: verifier).0 == .forbidden)
            let (s1, _) = try await Self.upload(client, "/v1/layers/zones/versions", "{\"type\":\"Feature\"", token: admin)
            #expect(s1 == .unprocessableContent)
            #expect(try await Self.upload(client, "/v1/layers/bad%20name/versions", Self.collection([]), token: admin).0 == .badRequest)
            #expect(try await Self.upload(client, "/v1/layers/zones/versions", Self.collection([]), token: admin).0 == .unprocessableContent, "no features")
            let big = Self.collection((0..<60).map { Self.square("B\($0)", lon: -87.6 + Double($0) * 0.003, lat: 41.79) })
            #expect(try await Self.upload(client, "/v1/layers/zones/versions", big, token: admin).0 == .contentTooLarge)
            // A point layer cannot become an area layer.
            let point = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"P1","properties":{},"geometry":{"type":"Point","coordinates":[-87.6,41.79]}}]}"#
            #expect(try await Self.upload(client, "/v1/layers/zones/versions", point, token: admin).0 == .conflict)
            // One zone over the whole campus, published at once: the report placed in a zone moves into it.
            _ = try await client.json(.post, "/v1/reports", body: Drafts.covid(hall: "H07"))
            let whole = Self.collection([Self.square("ALL", lon: -87.61, lat: 41.78, size: 0.03)])
            let (s2, made) = try await Self.upload(client, "/v1/layers/zones/versions?publish=true", whole, token: admin)
            #expect(s2 == .created && made["published"] as? Bool == true && made["version"] as? Int == 2 && made["moved"] as? Int == 1)
        }
    }
}
