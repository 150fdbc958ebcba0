import DomainKernel
import Foundation
import ReportVerification
import Storage

extension SQLiteStore: RevisionStore {
    public func edit(reportID: String, _ edit: ReportEdit, actor: String, expectedVersion: Int?, keep: Int,
                     allowed: @escaping @Sendable (ReportRecord) throws -> Void) async throws -> ReportRecord {
        let zone = timeZone
        return try await run { db in
            try db.transaction {
                try Self.apply(edit, to: reportID, actor: actor, action: "edit", expectedVersion: expectedVersion, keep: keep, allowed: allowed,
                               zone: zone, db)
            }
        }
    }

    public func restore(reportID: String, revision: Int, actor: String, expectedVersion: Int?, keep: Int,
                        allowed: @escaping @Sendable (ReportRecord) throws -> Void) async throws -> ReportRecord {
        let zone = timeZone
        return try await run { db in
            try db.transaction {
                guard let kept = try Self.revisions(reportID, db).first(where: { $0.revision == revision }) else {
                    throw StorageError.notFound("revision \(revision) of report \(reportID)")
                }
                let edit = ReportEdit(occurredOn: kept.occurredOn, lon: kept.lon, lat: kept.lat, areas: kept.areas, payload: kept.payload)
                return try Self.apply(edit, to: reportID, actor: actor, action: "restore:\(revision)", expectedVersion: expectedVersion,
                                      keep: keep, allowed: allowed, zone: zone, db)
            }
        }
    }

    public func revisions(reportID: String) async throws -> [ReportRevision] {
        try await run { db in try Self.revisions(reportID, db) }
    }

    static func revisions(_ reportID: String, _ db: SQLiteConnection) throws -> [ReportRevision] {
        let s = try db.prepare("SELECT revision, at, actor, occurred_on, lon, lat, areas, payload FROM revisions WHERE report_id = ? ORDER BY revision DESC")
            .bind(.text(reportID))
        var out: [ReportRevision] = []
        while try s.step() {
            let areas = (try? JSONDecoder().decode([AreaAssignment].self, from: Data(s.text(6)!.utf8))) ?? []
            guard let occurredOn = try s.day(3) else { throw StorageError.unreadable("revision of report \(reportID)") }
            out.append(ReportRevision(reportID: reportID, revision: Int(s.int(0)), at: Timestamp.parse(s.text(1)!), actor: s.text(2)!,
                                      occurredOn: occurredOn, lon: s.isNull(4) ? nil : s.double(4), lat: s.isNull(5) ? nil : s.double(5),
                                      areas: areas, payload: Data(s.text(7)!.utf8)))
        }
        return out
    }

    /// Writes a revision row for the report's content as given.
    private static func recordRevision(_ reportID: String, revision: Int, at: String, actor: String, occurredOn: Day,
                                       lon: Double?, lat: Double?, areas: [AreaAssignment], payload: Data, _ db: SQLiteConnection) throws {
        let areasJSON = String(decoding: (try? JSONEncoder().encode(areas)) ?? Data("[]".utf8), as: UTF8.self)
        try db.prepare("INSERT INTO revisions (report_id, revision, at, actor, occurred_on, lon, lat, areas, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .bind(.text(reportID), .int(Int64(revision)), .text(at), .text(actor), .day(occurredOn), lon.map { .double($0) } ?? .null,
                  lat.map { .double($0) } ?? .null, .text(areasJSON), .text(String(decoding: payload, as: UTF8.self))).run()
    }

    private static func apply(_ edit: ReportEdit, to reportID: String, actor: String, action: String, expectedVersion: Int?, keep: Int,
                              allowed: (ReportRecord) throws -> Void, zone: TimeZone, _ db: SQLiteConnection) throws -> ReportRecord {
        guard var r = try loadReport(id: reportID, db) else { throw ReportChangeError.notFound }
        let before = r
        if let expectedVersion, expectedVersion != r.version { throw ReportChangeError.staleVersion(current: r.version, status: r.status) }
        try allowed(r)
        let group = r.group(after: edit)
        let at = Timestamp.now()
        var latest = Int(try db.prepare("SELECT COALESCE(MAX(revision), 0) FROM revisions WHERE report_id = ?").bind(.text(reportID)).firstInt() ?? 0)
        if latest == 0 {
            // The submitted content becomes revision 1 the first time the report is edited.
            try recordRevision(reportID, revision: 1, at: Timestamp.format(r.submittedAt), actor: r.reporterID ?? "anonymous",
                               occurredOn: r.occurredOn, lon: r.lon, lat: r.lat, areas: r.areas, payload: r.payload, db)
            latest = 1
        }
        try recordRevision(reportID, revision: latest + 1, at: at, actor: actor, occurredOn: edit.occurredOn, lon: edit.lon, lat: edit.lat,
                           areas: edit.areas, payload: edit.payload, db)
        try db.prepare("DELETE FROM revisions WHERE report_id = ? AND revision <= ?").bind(.text(reportID), .int(Int64(latest + 1 - max(keep, 1)))).run()
        // An edit makes the report new to the publication ledger (ledger_line NULL): a report that
        // moved is a change of the report, counted from its old line to its new class's line at
        // the next publication, not a change of the areas (which lines follow, see LineLineage).
        try db.prepare("UPDATE reports SET occurred_on = ?, lon = ?, lat = ?, payload = ?, version = version + 1, updated_at = ?, group_key = ?, ledger_line = NULL, ledger_settled = 0 WHERE id = ?")
            .bind(.day(edit.occurredOn), edit.lon.map { .double($0) } ?? .null, edit.lat.map { .double($0) } ?? .null,
                  .text(String(decoding: edit.payload, as: UTF8.self)), .text(at), .text(group), .text(reportID)).run()
        try db.prepare("DELETE FROM report_areas WHERE report_id = ?").bind(.text(reportID)).run()
        let insertArea = try db.prepare("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES (?, ?, ?, ?)")
        for a in edit.areas { try insertArea.bind(.text(reportID), .text(a.layer), .int(Int64(a.layerVersion)), .text(a.areaID)).run() }
        try appendAudit(db, AuditFields(reportID: reportID, actor: actor, at: at, action: action, from: r.status, to: r.status))
        if r.status == .verified {
            // A verified report's day or area may have changed: public numbers move.
            try db.execute("UPDATE meta SET value = value + 1 WHERE key = 'data_version'")
        }
        r = r.applying(edit, group: group, at: at)
        var counters = CounterChanges(zone: zone)
        counters.add(from: before, to: r)
        try writeCounters(counters, db)
        return r
    }
}
