import GeoCore
import DomainKernel
import Foundation
import Storage
import Support
import Synchronization
import Testing

func area(_ id: String, _ x: Double, name: String? = nil, capacity: Double? = nil) -> StoredArea {
    let ring = [(x, 0.0), (x + 1, 0), (x + 1, 1), (x, 1), (x, 0)].map { try! Position(lon: $0.0, lat: $0.1) }
    return StoredArea(id: id, name: name, properties: capacity.map { ["capacity": .number($0)] } ?? [:],
                      geometry: .polygon(try! Polygon(rings: [ring])))
}

@Suite("area store")
struct AreaStoreTests {
    @Test("migrating creates the schema once and reports its version", arguments: StoreBackend.allCases)
    func migrate(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let store = t.store
        let version = try await store.migrate()
        #expect(version > 0)
        #expect(try await store.migrate() == version)
        #expect(try await store.layers().isEmpty)
        #expect(try await store.dataVersion() == 0)
        try await store.ping()
    }

    @Test("an imported layer reads back exactly, in id order, and bumps the data version", arguments: StoreBackend.allCases)
    func importAndRead(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let store = t.store
        let areas = [area("b", 2, name: "Birch Hall", capacity: 120), area("a", 0, name: "Alder Hall")]
        let info = try await store.importLayer(LayerImport(layer: "halls", kind: .areas, source: "halls.geojson", areas: areas, repairedCount: 1))
        #expect(info.version == 1 && info.featureCount == 2 && info.repairedCount == 1)
        let (published, read) = try await store.publishedAreas(layer: "halls")
        #expect(published.version == 1)
        #expect(read == areas.sorted { $0.id < $1.id })
        #expect(try await store.dataVersion() == 1)
        let layers = try await store.layers()
        #expect(layers.map(\.name) == ["halls"] && layers[0].publishedVersion == 1 && layers[0].kind == .areas)
    }

    @Test("a new layer is imported once, published in the same transaction: of several stores racing to create it, one imports and the others write nothing",
          arguments: StoreBackend.allCases)
    func stageNewLayerOnce(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let stores = [t.store] + (try (0..<3).map { _ in try t.reopen() })
        let staged = try await withThrowingTaskGroup(of: LayerVersionInfo?.self) { group in
            for (i, store) in stores.enumerated() {
                group.addTask { try await store.importNewLayer(LayerImport(layer: "halls", kind: .areas, source: "s\(i)", areas: [area("a", 0)])) }
            }
            return try await group.reduce(into: [LayerVersionInfo]()) { if let info = $1 { $0.append(info) } }
        }
        #expect(staged.map(\.version) == [1])
        let layers = try await t.store.layers()
        #expect(layers.count == 1 && layers[0].versions.count == 1 && layers[0].publishedVersion == 1)
        #expect(try await t.store.importNewLayer(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("b", 1)])) == nil)
        #expect(try await t.store.stage(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("b", 1)])).version == 2)
    }

    @Test("a publication by another store is visible to a poll at once, and announced to observers where the backend listens (PostgreSQL)",
          arguments: StoreBackend.allCases)
    func announcedChanges(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let heard = Mutex(0)
        t.store.observeChanges { heard.withLock { $0 += 1 } }
        func heardWithin(_ seconds: Double, _ condition: (Int) -> Bool) async throws -> Bool {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < deadline {
                if condition(heard.withLock { $0 }) { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return condition(heard.withLock { $0 })
        }
        // The listener announces once when it connects (notifications may have been missed before).
        if backend == .postgres { #expect(try await heardWithin(5) { $0 > 0 }) }
        let before = heard.withLock { $0 }
        try await t.reopen().importLayer(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("a", 0)]))
        #expect(try await t.store.dataVersion() == 1)
        switch backend {
        case .postgres: #expect(try await heardWithin(2) { $0 > before })
        case .sqlite: #expect(heard.withLock { $0 } == 0)
        }
    }

    @Test("re-import makes a new version; the old one stays readable and published until the new one is published", arguments: StoreBackend.allCases)
    func versions(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let store = t.store
        try await store.importLayer(LayerImport(layer: "zones", kind: .areas, source: nil, areas: [area("z1", 0)]))
        let staged = try await store.stage(LayerImport(layer: "zones", kind: .areas, source: nil, areas: [area("z1", 0), area("z2", 1)]))
        #expect(staged.version == 2)
        #expect(try await store.publishedAreas(layer: "zones").0.version == 1)
        #expect(try await store.publishedAreas(layer: "zones").1.count == 1)
        try await store.publish(layer: "zones", version: 2)
        #expect(try await store.publishedAreas(layer: "zones").1.count == 2)
        #expect(try await store.areas(layer: "zones", version: 1).map(\.id) == ["z1"])
        #expect(try await store.dataVersion() == 2)
        await #expect(throws: StorageError.unknownVersion(layer: "zones", version: 9)) { try await store.publish(layer: "zones", version: 9) }
        await #expect(throws: StorageError.unknownVersion(layer: "zones", version: 9)) { try await store.areas(layer: "zones", version: 9) }
    }

    @Test("duplicate ids are refused and nothing is written", arguments: StoreBackend.allCases)
    func duplicateIDs(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let store = t.store
        await #expect(throws: StorageError.self) {
            try await store.importLayer(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("a", 0), area("a", 1)]))
        }
        #expect(try await store.layers().isEmpty)
        #expect(try await store.dataVersion() == 0)
    }

    @Test("a layer keeps its kind; a points import into an area layer is refused without a trace", arguments: StoreBackend.allCases)
    func kindMismatch(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let store = t.store
        try await store.importLayer(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("a", 0)]))
        let site = StoredArea(id: "t1", name: nil, properties: [:], geometry: .point(try Position(lon: 1, lat: 1)))
        await #expect(throws: StorageError.invalidImport("layer \"halls\" holds areas, not points")) {
            try await store.importLayer(LayerImport(layer: "halls", kind: .points, source: nil, areas: [site]))
        }
        let layers = try await store.layers()
        #expect(layers[0].versions.count == 1)
    }

    @Test("data survives closing and reopening the store", arguments: StoreBackend.allCases)
    func durable(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        try await t.store.importLayer(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("a", 0, capacity: 50)]))
        let reopened = try t.reopen()
        try await reopened.migrate()
        #expect(try await reopened.publishedAreas(layer: "halls").1 == [area("a", 0, capacity: 50)])
    }

    @Test("a database from a newer geoserve is refused", arguments: StoreBackend.allCases)
    func schemaTooNew(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let store = t.store
        let latest = try await store.migrate()
        try t.raw("INSERT INTO schema_migrations (version, applied_at) VALUES (99, 'later')")
        await #expect(throws: StorageError.schemaTooNew(found: 99, supported: latest)) { try await store.migrate() }
    }
}
