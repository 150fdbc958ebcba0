import DomainKernel
import Foundation
import ReportVerification
import Storage

extension PostgresStore: RevisionStore {
    public func edit(reportID: String, _ edit: ReportEdit, actor: String, expectedVersion: Int?, keep: Int,
                     permission: EditPermission) async throws -> ReportRecord {
        try await write("edit a report") {
            try $0.edit(reportID: reportID, edit, actor: actor, expectedVersion: expectedVersion, keep: keep, permission: permission)
        }
    }

    public func restore(reportID: String, revision: Int, actor: String, expectedVersion: Int?, keep: Int,
                        permission: EditPermission) async throws -> ReportRecord {
        try await write("restore a revision") {
            try $0.restore(reportID: reportID, revision: revision, actor: actor, expectedVersion: expectedVersion, keep: keep, permission: permission)
        }
    }

    public func revisions(reportID: String) async throws -> [ReportRevision] {
        try await pool.run("read revisions") { db in try Self.revisions(reportID, db) }
    }

    static func revisions(_ reportID: String, _ db: PostgresConnection) throws -> [ReportRevision] {
        let s = try db.query("SELECT revision, at, actor, occurred_on, lon, lat, areas, payload FROM revisions WHERE report_id = $1 ORDER BY revision DESC",
                             [.text(reportID)])
        return try (0..<s.count).map { i in
            let areas = ReportRevision.areas(fromJSON: s.string(i, 6))
            guard let occurredOn = try s.day(i, 3) else { throw StorageError.unreadable("revision of report \(reportID)") }
            return ReportRevision(reportID: reportID, revision: Int(s.int(i, 0)), at: try Timestamp.parse(s.string(i, 1)), actor: s.string(i, 2),
                                  occurredOn: occurredOn, lon: s.double(i, 4), lat: s.double(i, 5), areas: areas, payload: Data(s.string(i, 7).utf8))
        }
    }
}
