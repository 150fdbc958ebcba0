import DomainKernel
import Foundation
import ReportVerification
import Storage

extension PostgresStore: RevisionStore {
    public func edit(reportID: String, _ edit: ReportEdit, actor: String, expectedVersion: Int?, keep: Int,
                     allowed: @escaping @Sendable (ReportRecord) throws -> Void) async throws -> ReportRecord {
        let zone = timeZone
        return try await pool.writeTransaction("edit a report") { db in
            return try Self.apply(edit, to: reportID, actor: actor, action: "edit", expectedVersion: expectedVersion, keep: keep, allowed: allowed,
                                  zone: zone, db)
        }
    }

    public func restore(reportID: String, revision: Int, actor: String, expectedVersion: Int?, keep: Int,
                        allowed: @escaping @Sendable (ReportRecord) throws -> Void) async throws -> ReportRecord {
        let zone = timeZone
        return try await pool.writeTransaction("restore a revision") { db in
            guard let kept = try Self.revisions(reportID, db).first(where: { $0.revision == revision }) else {
                throw StorageError.notFound("revision \(revision) of report \(reportID)")
            }
            let edit = ReportEdit(occurredOn: kept.occurredOn, lon: kept.lon, lat: kept.lat, areas: kept.areas, payload: kept.payload)
            return try Self.apply(edit, to: reportID, actor: actor, action: "restore:\(revision)", expectedVersion: expectedVersion,
                                  keep: keep, allowed: allowed, zone: zone, db)
        }
    }

    public func revisions(reportID: String) async throws -> [ReportRevision] {
        try await pool.run("read revisions") { db in try Self.revisions(reportID, db) }
    }

    static func revisions(_ reportID: String, _ db: PostgresConnection) throws -> [ReportRevision] {
        let s = try db.query("SELECT revision, at, actor, occurred_on, lon, lat, areas, payload FROM revisions WHERE report_id = $1 ORDER BY revision DESC",
                             [.text(reportID)])
        return try (0..<s.count).map { i in
            let areas = (try? JSONDecoder().decode([AreaAssignment].self, from: Data(s.string(i, 6).utf8))) ?? []
            guard let occurredOn = try s.day(i, 3) else { throw StorageError.unreadable("revision of report \(reportID)") }
            return ReportRevision(reportID: reportID, revision: Int(s.int(i, 0)), at: Timestamp.parse(s.string(i, 1)), actor: s.string(i, 2),
                                  occurredOn: occurredOn, lon: s.double(i, 4), lat: s.double(i, 5), areas: areas, payload: Data(s.string(i, 7).utf8))
        }
    }

    /// Writes a revision row for the report's content as given.
    private static func recordRevision(_ reportID: String, revision: Int, at: String, actor: String, occurredOn: Day,
                                       lon: Double?, lat: Double?, areas: [AreaAssignment], payload: Data, _ db: PostgresConnection) throws {
        let areasJSON = String(decoding: (try? JSONEncoder().encode(areas)) ?? Data("[]".utf8), as: UTF8.self)
        try db.query("INSERT INTO revisions (report_id, revision, at, actor, occurred_on, lon, lat, areas, payload) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                     [.text(reportID), .int(Int64(revision)), .text(at), .text(actor), .day(occurredOn), .optional(lon), .optional(lat),
                      .text(areasJSON), .text(String(decoding: payload, as: UTF8.self))])
    }

    private static func apply(_ edit: ReportEdit, to reportID: String, actor: String, action: String, expectedVersion: Int?, keep: Int,
                              allowed: (ReportRecord) throws -> Void, zone: TimeZone, _ db: PostgresConnection) throws -> ReportRecord {
        guard var r = try loadReport(id: reportID, db) else { throw ReportChangeError.notFound }
        let before = r
        if let expectedVersion, expectedVersion != r.version { throw ReportChangeError.staleVersion(current: r.version, status: r.status) }
        try allowed(r)
        let group = r.group(after: edit)
        let at = Timestamp.now()
        var latest = Int(try db.query("SELECT COALESCE(MAX(revision), 0) FROM revisions WHERE report_id = $1", [.text(reportID)]).firstInt ?? 0)
        if latest == 0 {
            // The submitted content becomes revision 1 the first time the report is edited.
            try recordRevision(reportID, revision: 1, at: Timestamp.format(r.submittedAt), actor: r.reporterID ?? "anonymous",
                               occurredOn: r.occurredOn, lon: r.lon, lat: r.lat, areas: r.areas, payload: r.payload, db)
            latest = 1
        }
        try recordRevision(reportID, revision: latest + 1, at: at, actor: actor, occurredOn: edit.occurredOn, lon: edit.lon, lat: edit.lat,
                           areas: edit.areas, payload: edit.payload, db)
        try db.query("DELETE FROM revisions WHERE report_id = $1 AND revision <= $2", [.text(reportID), .int(Int64(latest + 1 - max(keep, 1)))])
        // An edit makes the report new to the publication ledger (see the SQLite store).
        try db.query("UPDATE reports SET occurred_on = $1, lon = $2, lat = $3, payload = $4, version = version + 1, updated_at = $5, group_key = $6, ledger_line = NULL, ledger_settled = false WHERE id = $7",
                     [.day(edit.occurredOn), .optional(edit.lon), .optional(edit.lat), .text(String(decoding: edit.payload, as: UTF8.self)),
                      .text(at), .text(group), .text(reportID)])
        try db.query("DELETE FROM report_areas WHERE report_id = $1", [.text(reportID)])
        try insertAreas(reportID, edit.areas, db)
        try appendAudit(db, AuditFields(reportID: reportID, actor: actor, at: at, action: action, from: r.status, to: r.status))
        if r.status == .verified {
            // A verified report's day or area may have changed: public numbers move.
            try bumpDataVersion(db)
        }
        r = r.applying(edit, group: group, at: at)
        var counters = CounterChanges(zone: zone)
        counters.add(from: before, to: r)
        try writeCounters(counters, db)
        return r
    }
}
