import DomainKernel
import Foundation
import GeoCore
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
            return (0..<s.count).map { i in
                let name = s.string(i, 0)
                let kind = LayerKind(rawValue: s.string(i, 1)) ?? .areas
                let infos = (byLayer[name] ?? []).map { v in
                    LayerVersionInfo(layer: name, version: v.0, kind: kind, createdAt: Timestamp.parse(v.1), source: v.2,
                                     featureCount: v.3, repairedCount: v.4, rejectedCount: v.5)
                }
                return LayerSummary(name: name, kind: kind, publishedVersion: s.isNull(i, 2) ? nil : Int(s.int(i, 2)), versions: infos)
            }
        }
    }

    public func stage(_ layer: LayerImport) async throws -> LayerVersionInfo {
        // A layer that must exist or be new is never refused as existing.
        let rows = try layer.rows()
        return try await pool.transaction("stage a layer version") { db in try Self.stage(layer, rows: rows, onlyIfNew: false, db)! }
    }

    public func importNewLayer(_ layer: LayerImport) async throws -> LayerVersionInfo? {
        let rows = try layer.rows()
        return try await pool.writeTransaction("import a new layer") { db -> LayerVersionInfo? in
            guard let info = try Self.stage(layer, rows: rows, onlyIfNew: true, db) else { return nil }
            _ = try Self.publish(layer: info.layer, version: info.version, resolve: nil, zone: .gmt, db)
            return info
        }
    }

    public func importAndPublish(_ layer: LayerImport, resolve: AreaResolver?) async throws -> (info: LayerVersionInfo, moved: Int) {
        let rows = try layer.rows()
        let zone = timeZone
        // The writer lock: re-assignment moves reports and counters.
        return try await pool.writeTransaction("import and publish a layer version") { db in
            let info = try Self.stage(layer, rows: rows, onlyIfNew: false, db)!
            return (info, try Self.publish(layer: info.layer, version: info.version, resolve: resolve, zone: zone, db))
        }
    }

    /// Stores a new version inside the caller's transaction; nil when `onlyIfNew` and the layer exists.
    private static func stage(_ layer: LayerImport, rows: LayerImport.Rows, onlyIfNew: Bool, _ db: PostgresConnection) throws -> LayerVersionInfo? {
        let now = Timestamp.now()
        // Of two processes creating one layer, the second waits here for the first's commit.
        let created = try db.query("INSERT INTO layers (name, kind, published_version, created_at) VALUES ($1, $2, NULL, $3) ON CONFLICT (name) DO NOTHING RETURNING name",
                                   [.text(layer.layer), .text(layer.kind.rawValue), .text(now)]).count > 0
        if onlyIfNew && !created { return nil }
        // The layer's row lock numbers versions: two processes staging at once get 2 and 3.
        let existing = try db.query("SELECT kind FROM layers WHERE name = $1 FOR UPDATE", [.text(layer.layer)]).firstText
        guard existing == layer.kind.rawValue else {
            throw StorageError.invalidImport("layer \"\(layer.layer)\" holds \(existing ?? "nothing"), not \(layer.kind.rawValue)")
        }
        let version = Int(try db.query("SELECT COALESCE(MAX(version), 0) + 1 FROM layer_versions WHERE layer = $1", [.text(layer.layer)]).firstInt ?? 1)
        try db.query("""
            INSERT INTO layer_versions (layer, version, created_at, source, feature_count, repaired_count, rejected_count)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """, [.text(layer.layer), .int(Int64(version)), .text(now), .optional(layer.source), .int(Int64(rows.count)),
                  .int(Int64(layer.repairedCount)), .int(Int64(layer.rejectedCount))])
        // Rows go in chunks of one multi-row INSERT each: a round trip per area would make a
        // 100,000-area layer wait on the network.
        let chunk = 500
        for start in stride(from: 0, to: rows.count, by: chunk) {
            let part = rows[start..<min(start + chunk, rows.count)]
            var values: [PostgresValue] = []
            var tuples: [String] = []
            for (n, r) in part.enumerated() {
                let b = n * 6
                tuples.append("($\(b + 1), $\(b + 2), $\(b + 3), $\(b + 4), $\(b + 5), $\(b + 6))")
                values += [.text(layer.layer), .int(Int64(version)), .text(r.id), .optional(r.name), .text(r.properties), .text(r.geometry)]
            }
            try db.query("INSERT INTO areas (layer, version, area_id, name, properties, geometry) VALUES " + tuples.joined(separator: ", "),
                         values, prepare: part.count == chunk)
        }
        return LayerVersionInfo(layer: layer.layer, version: version, kind: layer.kind, createdAt: Timestamp.parse(now),
                                source: layer.source, featureCount: rows.count,
                                repairedCount: layer.repairedCount, rejectedCount: layer.rejectedCount)
    }

    @discardableResult
    public func publish(layer: String, version: Int, resolve: AreaResolver?) async throws -> Int {
        let zone = timeZone
        return try await pool.writeTransaction("publish a layer version") { db in
            // Re-assignment moves reports and counters, so it excludes every other report change.
            let exists = try db.query("SELECT 1 FROM layer_versions WHERE layer = $1 AND version = $2", [.text(layer), .int(Int64(version))]).firstInt
            guard exists != nil else { throw StorageError.unknownVersion(layer: layer, version: version) }
            return try Self.publish(layer: layer, version: version, resolve: resolve, zone: zone, db)
        }
    }

    /// Makes a stored version current inside the caller's transaction (which holds the writer lock).
    private static func publish(layer: String, version: Int, resolve: AreaResolver?, zone: TimeZone, _ db: PostgresConnection) throws -> Int {
        try db.query("UPDATE layers SET published_version = $1 WHERE name = $2", [.int(Int64(version)), .text(layer)])
        let moved = try resolve.map { try reassign(layer: layer, version: version, resolve: $0, zone: zone, db) } ?? 0
        try bumpDataVersion(db)
        return moved
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
        return try StoredArea.read(rows: rows)
    }

    /// Moves every report to its area in the new version of `layer`, inside the caller's
    /// transaction, as `ReassignmentPlan` decides; counters follow the moves, summed and written once.
    static func reassign(layer: String, version: Int, resolve: AreaResolver, zone: TimeZone, _ db: PostgresConnection) throws -> Int {
        let areaRows = try db.query("SELECT report_id, layer, layer_version, area_id FROM report_areas ORDER BY report_id, layer")
        var areasByReport: [String: [AreaAssignment]] = [:]
        for i in 0..<areaRows.count {
            areasByReport[areaRows.string(i, 0), default: []].append(AreaAssignment(layer: areaRows.string(i, 1), layerVersion: Int(areaRows.int(i, 2)),
                                                                                    areaID: areaRows.string(i, 3)))
        }
        let rows = try db.query("SELECT \(reportColumns) FROM reports")
        let all = try (0..<rows.count).map { try readReport(rows, $0, areas: areasByReport[rows.string($0, 0)] ?? []) }
        let plan = ReassignmentPlan(layer: layer, version: version, reports: all, resolve: resolve, zone: zone)
        for move in plan.moves {
            try db.query("DELETE FROM report_areas WHERE report_id = $1 AND layer = $2", [.text(move.reportID), .text(layer)])
            if let area = move.area {
                try db.query("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES ($1, $2, $3, $4)",
                             [.text(move.reportID), .text(layer), .int(Int64(version)), .text(area)])
            }
        }
        try writeCounters(plan.counters, db)
        return plan.moved
    }
}
