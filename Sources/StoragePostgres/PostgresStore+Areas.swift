import DomainKernel
import Foundation
import Storage

extension PostgresStore: AreaStore {
    public func layers() async throws -> [LayerSummary] {
        // One snapshot for both reads: a version stored and published by another process
        // between them would otherwise be published without being listed.
        try await pool.transaction("list layers", begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { db in
            let versions = try db.query("""
                SELECT layer, version, created_at, source, feature_count, repaired_count, rejected_count
                FROM layer_versions ORDER BY layer, version
                """)
            var byLayer: [String: [(Int, String, String?, Int, Int, Int)]] = [:]
            for i in 0..<versions.count {
                byLayer[versions.string(i, 0), default: []].append((Int(versions.int(i, 1)), versions.string(i, 2), versions.text(i, 3),
                                                                    Int(versions.int(i, 4)), Int(versions.int(i, 5)), Int(versions.int(i, 6))))
            }
            let s = try db.query("SELECT name, kind, published_version FROM layers ORDER BY name")
            return try (0..<s.count).map { i in
                let name = s.string(i, 0)
                let kind = LayerKind(rawValue: s.string(i, 1)) ?? .areas
                let infos = try (byLayer[name] ?? []).map { v in
                    LayerVersionInfo(layer: name, version: v.0, kind: kind, createdAt: try Timestamp.parse(v.1), source: v.2,
                                     featureCount: v.3, repairedCount: v.4, rejectedCount: v.5)
                }
                return LayerSummary(name: name, kind: kind, publishedVersion: s.isNull(i, 2) ? nil : Int(s.int(i, 2)), versions: infos)
            }
        }
    }

    public func stage(_ layer: LayerImport) async throws -> LayerVersionInfo {
        // A layer that must exist or be new is never refused as existing.
        let rows = try layer.rows()
        let zone = timeZone
        return try await pool.transaction("stage a layer version") { db in
            try PostgresWrites(db: db, zone: zone).stage(layer, rows: rows, onlyIfNew: false)!
        }
    }

    public func importNewLayer(_ layer: LayerImport) async throws -> LayerVersionInfo? {
        let rows = try layer.rows()
        return try await write("import a new layer") { try $0.importNewLayer(layer, rows: rows) }
    }

    public func importAndPublish(_ layer: LayerImport, resolve: AreaResolver?) async throws -> (info: LayerVersionInfo, moved: Int) {
        let rows = try layer.rows()
        // The writer lock: re-assignment moves reports and counters.
        return try await write("import and publish a layer version") { try $0.importAndPublish(layer, rows: rows, resolve: resolve) }
    }

    @discardableResult
    public func publish(layer: String, version: Int, resolve: AreaResolver?) async throws -> Int {
        // Re-assignment moves reports and counters, so it excludes every other report change.
        try await write("publish a layer version") { try $0.publishStored(layer: layer, version: version, resolve: resolve) }
    }

    public func areas(layer: String, version: Int) async throws -> [StoredArea] {
        let rows: [StoredArea.Row] = try await pool.run("read a layer's areas") { db in
            let s = try db.query("SELECT area_id, name, properties, geometry FROM areas WHERE layer = $1 AND version = $2 ORDER BY area_id",
                                 [.text(layer), .int(Int64(version))])
            if s.count == 0 {
                let known = try db.query("SELECT 1 FROM layer_versions WHERE layer = $1 AND version = $2", [.text(layer), .int(Int64(version))]).firstInt
                if known == nil { throw StorageError.unknownVersion(layer: layer, version: version) }
            }
            return (0..<s.count).map { (s.string($0, 0), s.text($0, 1), s.string($0, 2), s.string($0, 3)) }
        }
        return try StoredArea.read(rows: rows, layer: layer, version: version)
    }
}
