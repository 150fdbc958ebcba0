import DomainKernel
import Foundation
import ReportVerification

extension ReportWrites {
    /// Replaces the report's content (see `RevisionStore.edit`); the caller runs it in a
    /// transaction that holds the writer's lock.
    public func edit(reportID: String, _ edit: ReportEdit, actor: String, expectedVersion: Int?, keep: Int,
                     permission: EditPermission) throws -> ReportRecord {
        try apply(edit, to: reportID, actor: actor, action: "edit", expectedVersion: expectedVersion, keep: keep, permission: permission)
    }

    /// Makes a kept revision current again, as a new revision (see `RevisionStore.restore`).
    public func restore(reportID: String, revision: Int, actor: String, expectedVersion: Int?, keep: Int,
                        permission: EditPermission) throws -> ReportRecord {
        guard let kept = try revisions(reportID: reportID).first(where: { $0.revision == revision }) else {
            throw StorageError.notFound("revision \(revision) of report \(reportID)")
        }
        let edit = ReportEdit(occurredOn: kept.occurredOn, lon: kept.lon, lat: kept.lat, areas: kept.areas, payload: kept.payload)
        return try apply(edit, to: reportID, actor: actor, action: "restore:\(revision)", expectedVersion: expectedVersion, keep: keep,
                         permission: permission)
    }

    private func apply(_ edit: ReportEdit, to reportID: String, actor: String, action: String, expectedVersion: Int?, keep: Int,
                       permission: EditPermission) throws -> ReportRecord {
        guard let r = try report(id: reportID) else { throw ReportChangeError.notFound }
        if let expectedVersion, expectedVersion != r.version { throw ReportChangeError.staleVersion(current: r.version, status: r.status) }
        try permission.check(r.status)
        let group = r.group(after: edit)
        let now = Date()
        let at = Timestamp.format(now)
        var latest = try latestRevision(reportID: reportID)
        if latest == 0 {
            // The submitted content becomes revision 1 the first time the report is edited.
            try insertRevision(ReportRevision(reportID: reportID, revision: 1, at: r.submittedAt, actor: r.reporterID ?? "anonymous",
                                              occurredOn: r.occurredOn, lon: r.lon, lat: r.lat, areas: r.areas, payload: r.payload))
            latest = 1
        }
        try insertRevision(ReportRevision(reportID: reportID, revision: latest + 1, at: Timestamp.rounded(now), actor: actor,
                                          occurredOn: edit.occurredOn, lon: edit.lon, lat: edit.lat, areas: edit.areas, payload: edit.payload))
        // Only the newest `keep` revisions stay (at least the one just written).
        try deleteRevisions(reportID: reportID, through: latest + 1 - max(keep, 1))
        try setContent(reportID: reportID, edit, group: group, at: at)
        // An edit makes the report new to the publication ledger: a report that moved is a change
        // of the report, counted from its old line to its new class's line at the next
        // publication, not a change of the areas (which lines follow, see LineLineage).
        try clearLedgerLine(reportID: reportID)
        try replaceAreas(reportID: reportID, with: edit.areas)
        try appendAudit(AuditFields(reportID: reportID, actor: actor, at: at, action: action, from: r.status, to: r.status))
        // A verified report's day or area may have changed: public numbers move.
        if r.status == .verified { try bumpDataVersion() }
        let edited = r.applying(edit, group: group, at: now)
        try writeCounters(CounterChanges(zone: zone, from: r, to: edited))
        return edited
    }
}
