import DomainKernel
import Foundation
import Storage

extension SQLiteWrites: LayerWrites {
    func claimLayer(_ name: String, kind: LayerKind, at: String) throws -> (created: Bool, kind: String?) {
        // SQLite has one writer: the transaction already excludes every other.
        if let existing = try db.prepare("SELECT kind FROM layers WHERE name = ?").bind(.text(name)).firstText() { return (false, existing) }
        try db.prepare("INSERT INTO layers (name, kind, published_version, created_at) VALUES (?, ?, NULL, ?)")
            .bind(.text(name), .text(kind.rawValue), .text(at)).run()
        return (true, kind.rawValue)
    }

    func nextVersion(layer: String) throws -> Int {
        Int(try db.prepare("SELECT COALESCE(MAX(version), 0) + 1 FROM layer_versions WHERE layer = ?").bind(.text(layer)).firstInt() ?? 1)
    }

    func insertVersion(_ info: LayerVersionInfo, at: String) throws {
        try db.prepare("""
            INSERT INTO layer_versions (layer, version, created_at, source, feature_count, repaired_count, rejected_count)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).bind(.text(info.layer), .int(Int64(info.version)), .text(at), info.source.map { .text($0) } ?? .null,
                      .int(Int64(info.featureCount)), .int(Int64(info.repairedCount)), .int(Int64(info.rejectedCount))).run()
    }

    func insertAreas(_ rows: LayerImport.Rows, layer: String, version: Int) throws {
        let insert = try db.prepare("INSERT INTO areas (layer, version, area_id, name, properties, geometry) VALUES (?, ?, ?, ?, ?, ?)")
        // A smaller page cache while the rows go in: a layer's pages are written once, so the
        // cache would only hold them until the commit (at 300,000 areas its full 64 MiB, a fifth
        // of the import's peak); WAL mode lets SQLite spill them to the log early instead.
        try db.execute("PRAGMA cache_size = \(SQLiteStore.importCacheSize)")
        defer { try? db.execute("PRAGMA cache_size = \(SQLiteStore.cacheSize)") }
        for r in rows {
            try insert.bind(.text(layer), .int(Int64(version)), .text(r.id), r.name.map { .text($0) } ?? .null,
                            .text(r.properties), .text(r.geometry)).run()
        }
    }

    func versionExists(layer: String, version: Int) throws -> Bool {
        try db.prepare("SELECT 1 FROM layer_versions WHERE layer = ? AND version = ?").bind(.text(layer), .int(Int64(version))).firstInt() != nil
    }

    func setPublishedVersion(layer: String, version: Int) throws {
        try db.prepare("UPDATE layers SET published_version = ? WHERE name = ?").bind(.int(Int64(version)), .text(layer)).run()
    }

    func allReports() throws -> [ReportRecord] {
        // One scan reads every report's areas rather than a query per report.
        let areaRows = try db.prepare("SELECT report_id, layer, layer_version, area_id FROM report_areas ORDER BY report_id, layer")
        var areasByReport: [String: [AreaAssignment]] = [:]
        while try areaRows.step() {
            areasByReport[areaRows.text(0)!, default: []].append(AreaAssignment(layer: areaRows.text(1)!, layerVersion: Int(areaRows.int(2)),
                                                                                areaID: areaRows.text(3)!))
        }
        let rows = try db.prepare("SELECT \(SQLiteStore.reportColumns) FROM reports")
        var all: [ReportRecord] = []
        while try rows.step() { all.append(try SQLiteStore.readReport(rows, areas: areasByReport[rows.text(0)!] ?? [])) }
        return all
    }

    func apply(_ moves: [ReassignmentPlan.Move], layer: String, version: Int) throws {
        let delete = try db.prepare("DELETE FROM report_areas WHERE report_id = ? AND layer = ?")
        let insert = try db.prepare("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES (?, ?, ?, ?)")
        for move in moves {
            try delete.bind(.text(move.reportID), .text(layer)).run()
            if let area = move.area { try insert.bind(.text(move.reportID), .text(layer), .int(Int64(version)), .text(area)).run() }
        }
    }
}
