import DomainKernel
import Foundation
import Storage

extension PostgresWrites: LayerWrites {
    func claimLayer(_ name: String, kind: LayerKind, at: String) throws -> (created: Bool, kind: String?) {
        // Of two processes creating one layer, the second waits here for the first's commit.
        let created = try db.query("INSERT INTO layers (name, kind, published_version, created_at) VALUES ($1, $2, NULL, $3) ON CONFLICT (name) DO NOTHING RETURNING name",
                                   [.text(name), .text(kind.rawValue), .text(at)]).count > 0
        // The layer's row lock numbers versions: two processes staging at once get 2 and 3.
        return (created, try db.query("SELECT kind FROM layers WHERE name = $1 FOR UPDATE", [.text(name)]).firstText)
    }

    func nextVersion(layer: String) throws -> Int {
        Int(try db.query("SELECT COALESCE(MAX(version), 0) + 1 FROM layer_versions WHERE layer = $1", [.text(layer)]).firstInt ?? 1)
    }

    func insertVersion(_ info: LayerVersionInfo, at: String) throws {
        try db.query("""
            INSERT INTO layer_versions (layer, version, created_at, source, feature_count, repaired_count, rejected_count)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """, [.text(info.layer), .int(Int64(info.version)), .text(at), .optional(info.source), .int(Int64(info.featureCount)),
                  .int(Int64(info.repairedCount)), .int(Int64(info.rejectedCount))])
    }

    func insertAreas(_ rows: LayerImport.Rows, layer: String, version: Int) throws {
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
                values += [.text(layer), .int(Int64(version)), .text(r.id), .optional(r.name), .text(r.properties), .text(r.geometry)]
            }
            try db.query("INSERT INTO areas (layer, version, area_id, name, properties, geometry) VALUES " + tuples.joined(separator: ", "),
                         values, prepare: part.count == chunk)
        }
    }

    func versionExists(layer: String, version: Int) throws -> Bool {
        try db.query("SELECT 1 FROM layer_versions WHERE layer = $1 AND version = $2", [.text(layer), .int(Int64(version))]).firstInt != nil
    }

    func setPublishedVersion(layer: String, version: Int) throws {
        try db.query("UPDATE layers SET published_version = $1 WHERE name = $2", [.int(Int64(version)), .text(layer)])
    }

    func allReports() throws -> [ReportRecord] {
        let areaRows = try db.query("SELECT report_id, layer, layer_version, area_id FROM report_areas ORDER BY report_id, layer")
        var areasByReport: [String: [AreaAssignment]] = [:]
        for i in 0..<areaRows.count {
            areasByReport[areaRows.string(i, 0), default: []].append(AreaAssignment(layer: areaRows.string(i, 1), layerVersion: Int(areaRows.int(i, 2)),
                                                                                    areaID: areaRows.string(i, 3)))
        }
        let rows = try db.query("SELECT \(PostgresStore.reportColumns) FROM reports")
        return try (0..<rows.count).map { try PostgresStore.readReport(rows, $0, areas: areasByReport[rows.string($0, 0)] ?? []) }
    }

    func apply(_ moves: [ReassignmentPlan.Move], layer: String, version: Int) throws {
        for move in moves {
            try db.query("DELETE FROM report_areas WHERE report_id = $1 AND layer = $2", [.text(move.reportID), .text(layer)])
            if let area = move.area {
                try db.query("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES ($1, $2, $3, $4)",
                             [.text(move.reportID), .text(layer), .int(Int64(version)), .text(area)])
            }
        }
    }
}
