import DomainKernel
import Foundation
import ReportVerification

extension ReportWrites {
    /// A status transition (see `ReportStore.transition`); the caller runs it in a transaction
    /// that holds the writer's lock.
    public func transition(reportID: String, _ transition: ReportTransition, reason: String?, actor: String,
                           expectedVersion: Int?, now: Date = Date()) throws -> ReportRecord {
        guard var r = try report(id: reportID) else { throw ReportChangeError.notFound }
        if transition != .withdraw, r.reporterID == actor { throw ReportChangeError.ownReport }
        if let expectedVersion, expectedVersion != r.version {
            throw ReportChangeError.staleVersion(current: r.version, status: r.status)
        }
        let next: ReportStatus
        do throws(TransitionError) { next = try r.status.applying(transition, reason: reason) } catch {
            throw ReportChangeError.transition(error, current: r.status)
        }
        let at = Timestamp.format(now)
        let before = r
        if next == .verified { r.verifiedOn = Day.containing(now, in: zone) }
        try setStatus(reportID: reportID, version: r.version, to: next, verifiedOn: r.verifiedOn, at: at)
        try appendAudit(AuditFields(reportID: reportID, actor: actor, at: at, action: transition.rawValue, from: r.status, to: next, reason: reason))
        try enqueueNotification(id: TimeOrderedID.make(now: now), reportID: reportID, kind: r.kind, status: next, at: at)
        // Public numbers change only when the report enters or leaves `verified`.
        if r.status == .verified || next == .verified { try bumpDataVersion() }
        r.status = next
        r.version += 1
        r.updatedAt = Timestamp.rounded(now)
        try writeCounters(CounterChanges(zone: zone, from: before, to: r))
        return r
    }
}
