import GeoCore
import Aggregation
import ArgumentParser
import DomainKernel
import Foundation
import Hummingbird
import HummingbirdTesting
import MapTiles
import Storage
import Testing
@testable import GeoserveApp
@testable import geoserve

@Suite("tiles over HTTP")
struct TilesTests {
    /// The z17 tile holding hall H07's interior (the demo campus).
    static let h07: (z: Int, x: Int, y: Int) = {
        let key = try! TileKey.containing(lon: -87.5938, lat: 41.7917, zoom: 17)
        return (key.z, key.x, key.y)
    }()

    func bigEndian32(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    @Test("TileJSON 3.0 names tiles whose URL carries the data version; tiles are PNGs with ETags, 304s, and immutable caching under that URL")
    func tileJSONAndTiles() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let (s, _, doc) = try await client.getJSON("/tiles/halls.json")
            #expect(s == .ok)
            #expect(doc["tilejson"] as? String == "3.0.0")
            let url = try #require((doc["tiles"] as? [String])?.first)
            #expect(url.contains("/tiles/halls/{z}/{x}/{y}.png?v="))
            #expect(url.contains("metric=verified_14d"))
            #expect((doc["bounds"] as? [Double])?.count == 4)
            #expect(doc["legend"] is [String: Any])
            let templated = relative(url).replacingOccurrences(of: "%7Bz%7D", with: "{z}").replacingOccurrences(of: "%7Bx%7D", with: "{x}")
                .replacingOccurrences(of: "%7By%7D", with: "{y}")
            let (z, x, y) = Self.h07
            let tileURI = templated.replacingOccurrences(of: "{z}", with: "\(z)").replacingOccurrences(of: "{x}", with: "\(x)")
                .replacingOccurrences(of: "{y}", with: "\(y)")
            let tile = try await client.execute(uri: tileURI, method: .get) { $0 }
            #expect(tile.status == .ok)
            #expect(tile.headers[.contentType] == "image/png")
            #expect(tile.headers[.cacheControl] == TilesController.immutable)
            let png = Array(tile.body.readableBytesView)
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(bigEndian32(png, at: 16) == 256 && bigEndian32(png, at: 20) == 256)
            let etag = try #require(tile.headers[.eTag])
            let again = try await client.execute(uri: tileURI, method: .get, headers: [.ifNoneMatch: etag]) { $0 }
            #expect(again.status == .notModified)
            // Without the version the same picture must be revalidated.
            let plain = try await client.execute(uri: "/tiles/halls/\(z)/\(x)/\(y).png", method: .get) { $0 }
            #expect(plain.headers[.cacheControl] == "public, no-cache")
            let retina = try await client.execute(uri: "/tiles/halls/\(z)/\(x)/\(y)@2x.png", method: .get) { $0 }
            #expect(bigEndian32(Array(retina.body.readableBytesView), at: 16) == 512)
            let legend = try await client.execute(uri: "/tiles/halls/legend.png", method: .get) { $0 }
            #expect(legend.status == .ok && legend.headers[.contentType] == "image/png")
        }
    }

    @Test("bad addresses answer 400, unknown or point layers 404, unknown parameters 400")
    func badAddresses() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            for uri in ["/tiles/halls/3/8/0.png", "/tiles/halls/3/0/8.png", "/tiles/halls/23/0/0.png", "/tiles/halls/-1/0/0.png",
                        "/tiles/halls/1/0/0.jpg", "/tiles/halls/a/0/0.png", "/tiles/halls/1/0/0.png?metric=mean", "/tiles/halls/1/0/0.png?colour=red"] {
                let (s, _, body) = try await client.getJSON(uri)
                #expect(s == .badRequest, "\(uri)")
                #expect(errorCode(body) != nil, "\(uri)")
            }
            for uri in ["/tiles/nowhere/1/0/0.png", "/tiles/testing-sites/1/0/0.png", "/tiles/nowhere.json", "/tiles/halls.xml"] {
                let (s, _, _) = try await client.getJSON(uri)
                #expect(s == .notFound, "\(uri)")
            }
            // A tile far from every area is the shared empty tile.
            let empty = try await client.execute(uri: "/tiles/halls/10/0/0.png", method: .get) { $0 }
            #expect(Array(empty.body.readableBytesView) == PNGEncoder.emptyTile(.x1))
        }
    }

    @Test("tiles colour exactly the numbers the GeoJSON publishes, from the same publication")
    func sameNumbers() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            // Three days ago, so the default window (14 days to today) holds the reports whenever the test runs.
            let day = Day.containing(Date(), in: TimeZone(identifier: "UTC")!).adding(days: -3).iso
            for (hall, n) in [("H06", 12), ("H07", 12), ("H08", 1)] {
                try await StatisticsTests().verifiedReports(client, admin: admin, hall: hall, count: n, testDate: day)
            }
            try await client.publish(admin)
            let (_, _, body) = try await client.getJSON("/collections/halls/items?limit=100")
            var published: [String: TileValue] = [:]
            for f in body["features"] as? [[String: Any]] ?? [] {
                let count = try #require((f["properties"] as? [String: Any])?["verified_14d"] as? Int)
                published[f["id"] as? String ?? ""] = .value(Double(count))
            }
            // H08's one report waits in the ledger; the twelves are out.
            #expect(published["H06"] == .value(12) && published["H07"] == .value(12) && published["H08"] == .value(0))
            let store = try openStore(service.configuration.database)
            let catalog = LayerCatalog()
            try await catalog.refresh(from: store)
            let halls = try #require(catalog.snapshot()["halls"])
            let book = PublicationBook(store: store)
            try await book.refresh()
            let statistics = StatisticsService(counters: store, publications: book, policy: .default, timeZone: TimeZone(identifier: "UTC")!)
            let view = try statistics.view(layer: "halls", kind: nil, basis: nil, end: nil, audience: .public, dataVersion: try await store.dataVersion())
            let released = try await statistics.release(halls, view, for: .public)
            let areas = try #require(halls.areaIndex?.areas)
            let values = TileService.values(released, areas: areas, ordinal: { halls.areaIndex?.ordinal(of: $0) }, query: TileQuery())
            #expect(values.count == published.count && areas.count == published.count)
            for (area, value) in zip(areas, values) { #expect(value == published[area.id], "\(area.id)") }
            #expect(released.areas.fallback != nil, "the published release shares one zero")
            // A release holding every area (no shared zero) is read area by area along the index:
            // each area a count of its own, so a value placed at another area's ordinal shows.
            let request = released.request
            let cells = areas.enumerated().map { i, area in
                (CounterKey(layer: "halls", areaID: area.id, kind: .covid, status: .verified, basis: request.basis, day: request.end, group: nil), i + 1)
            }
            let dense = DisclosureControl(policy: DisclosurePolicy(thresholds: [.public: 1])).release(
                Statistics.compute(request, areaIDs: areas.map(\.id), counters: cells, denominators: [:]), for: .public)
            #expect(dense.areas.fallback == nil)
            let denseValues = TileService.values(dense, areas: areas, ordinal: { _ in nil }, query: TileQuery())
            #expect(denseValues == areas.indices.map { .value(Double($0 + 1)) })
            // The painting the tile routes draw from gives every area a class.
            let tiles = TileService(statistics: statistics, cacheBytes: 1 << 20)
            let tileLayer = try await tiles.tileLayer(halls)
            let painting = try await tiles.painting(halls, query: TileQuery(), dataVersion: try await store.dataVersion())
            for id in published.keys {
                let ordinal = try #require(tileLayer.ordinal(of: id))
                #expect(painting.classIndex(ofArea: ordinal) != nil, "\(id)")
            }
            // Placed by the area index's ordinals, which the tile layer shares: with a break at
            // 5, the two twelves share a class and the halls at zero have the one below.
            var fixed = TileQuery()
            fixed.style.classification = .fixedBreaks([5])
            let split = try await tiles.painting(halls, query: fixed, dataVersion: try await store.dataVersion())
            let classOf = { (id: String) in tileLayer.ordinal(of: id).flatMap(split.classIndex(ofArea:)) }
            #expect(classOf("H06") == 1 && classOf("H07") == 1)
            #expect(classOf("H08") == 0 && classOf("H01") == 0)
            // TileJSON's extent, from the published layer, is the tile layer's.
            let (_, _, tileJSON) = try await client.getJSON("/tiles/halls.json")
            let bounds = try #require(tileLayer.bounds)
            #expect(tileJSON["bounds"] as? [Double] == [bounds.west, bounds.south, bounds.east, bounds.north])
            // And the routes do draw from it: the served tile over H07 is that painting's tile.
            let point = try #require(halls.interiorPoint(of: "H07"))
            let key = try TileKey.containing(lon: point.lon, lat: point.lat, zoom: 16)
            let served = try await client.execute(uri: "/tiles/halls/16/\(key.x)/\(key.y).png", method: .get) { [UInt8]($0.body.readableBytesView) }
            #expect(served == (try await tiles.tile(tileLayer, painting: painting, key: key, scale: .x1)).png)
        }
    }
}

@Suite("tiles seed")
struct TilesSeedTests {
    @Test("seed writes the PNG of every tile that shows an area, in z/x/y folders; bad zoom ranges are refused")
    func seed() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { _ in }
        let out = service.folder.appendingPathComponent("tiles")
        try await TilesSeedCommand.parse(["--layer", "halls", "--zooms", "15-16", "--out", out.path,
                                          "--database", service.configuration.database, "--keys", testKeysPath(for: service.configuration.database)]).run()
        let files = FileManager.default.enumerator(atPath: out.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".png") } ?? []
        #expect(files.contains { $0.hasPrefix("15/") } && files.contains { $0.hasPrefix("16/") })
        let h07 = try TileKey.containing(lon: -87.5938, lat: 41.7917, zoom: 16)
        let png = try Data(contentsOf: out.appendingPathComponent("16/\(h07.x)/\(h07.y).png"))
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        for bad in ["16-15", "23", "x"] {
            #expect(throws: (any Error).self) {
                try TilesSeedCommand.parse(["--layer", "halls", "--zooms", bad, "--out", out.path]).zoomRange()
            }
        }
    }
}
