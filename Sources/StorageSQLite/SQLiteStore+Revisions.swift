import DomainKernel
import Foundation
import ReportVerification
import Storage

extension SQLiteStore: RevisionStore {
    public func edit(reportID: String, _ edit: ReportEdit, actor: String, expectedVersion: Int?, keep: Int,
                     permission: EditPermission) async throws -> ReportRecord {
        try await write {
            try $0.edit(reportID: reportID, edit, actor: actor, expectedVersion: expectedVersion, keep: keep, permission: permission)
        }
    }

    public func restore(reportID: String, revision: Int, actor: String, expectedVersion: Int?, keep: Int,
                        permission: EditPermission) async throws -> ReportRecord {
        try await write {
            try $0.restore(reportID: reportID, revision: revision, actor: actor, expectedVersion: expectedVersion, keep: keep, permission: permission)
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
            let areas = ReportRevision.areas(fromJSON: s.text(6)!)
            guard let occurredOn = try s.day(3) else { throw StorageError.unreadable("revision of report \(reportID)") }
            out.append(ReportRevision(reportID: reportID, revision: Int(s.int(0)), at: try Timestamp.parse(s.text(1)!), actor: s.text(2)!,
                                      occurredOn: occurredOn, lon: s.isNull(4) ? nil : s.double(4), lat: s.isNull(5) ? nil : s.double(5),
                                      areas: areas, payload: Data(s.text(7)!.utf8)))
        }
        return out
    }
}
