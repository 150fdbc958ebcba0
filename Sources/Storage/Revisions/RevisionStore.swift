import DomainKernel
import Foundation

/// Edits with kept revisions: every change of content makes a revision; only the newest `keep`
/// are kept; a kept one can be restored, which is itself a new revision.
///
/// Concurrency contract: an edit or restore reads the report, checks `expectedVersion` and
/// `permission` against the status it has then, and writes content, revision, area rows, audit
/// entry, counters and (for a verified report) the data version in one transaction; a
/// concurrent transition or edit of the same report makes one of them see `staleVersion`.
public protocol RevisionStore: Sendable {
    /// Replaces the report's content in one transaction: revision, audit entry, area
    /// re-assignment and data version; `ReportChangeError.notEditable` when `permission` does
    /// not cover the report's status.
    func edit(reportID: String, _ edit: ReportEdit, actor: String, expectedVersion: Int?, keep: Int,
              permission: EditPermission) async throws -> ReportRecord

    /// The kept revisions, newest first.
    func revisions(reportID: String) async throws -> [ReportRevision]

    /// Makes a kept revision current again (as a new revision).
    func restore(reportID: String, revision: Int, actor: String, expectedVersion: Int?, keep: Int,
                 permission: EditPermission) async throws -> ReportRecord
}
