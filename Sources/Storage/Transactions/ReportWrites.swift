import DomainKernel
import Foundation
import ReportVerification

/// The reads and writes a change of one report is made of, inside a transaction the backend
/// has opened. Each backend gives only its SQL here; the scripts that combine them — a status
/// transition, an edit, a restore — are written once, in extensions of this protocol, so a rule
/// (keep five revisions, move the data version when a verified report changes) is one change.
public protocol ReportWrites: StoreWrites {
    func report(id: String) throws -> ReportRecord?
    /// Sets the status of the report at `version`, moving it to `version + 1`.
    func setStatus(reportID: String, version: Int, to status: ReportStatus, verifiedOn: Day?, at: String) throws
    /// Replaces the content of the report (its area rows apart) and moves its version on.
    func setContent(reportID: String, _ edit: ReportEdit, group: BreakdownGroup?, at: String) throws
    /// Forgets which publication ledger line the report is accounted to.
    func clearLedgerLine(reportID: String) throws
    func replaceAreas(reportID: String, with areas: [AreaAssignment]) throws
    /// Queues a status notification for the report's subscribers.
    func enqueueNotification(id: String, reportID: String, kind: ReportKind, status: ReportStatus, at: String) throws

    /// The kept revisions, newest first.
    func revisions(reportID: String) throws -> [ReportRevision]
    /// The highest revision number kept, 0 for a report never edited.
    func latestRevision(reportID: String) throws -> Int
    func insertRevision(_ revision: ReportRevision) throws
    func deleteRevisions(reportID: String, through revision: Int) throws
}
