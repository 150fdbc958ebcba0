import DomainKernel
import Foundation
import ReportVerification

/// Persistence of reports and their status transitions.
///
/// Concurrency contract, which every backend must keep with several writers:
/// - `submit` checks the idempotency key, the 14-day rule over the submitter's prior reports and
///   inserts the report, its area rows, its audit entry and its counter changes atomically with
///   respect to every other submission of the same submitter: two submissions with one key
///   store one report, and two covid reports racing past the 14-day rule store one. (SQLite
///   serialises all writers; a backend with concurrent writers locks per submitter or key.)
/// - `transition` reads, checks and writes the report, its audit entry, its counters and the
///   data version in one transaction; of two concurrent transitions of one report exactly one
///   applies and the other sees `staleVersion` or a refused transition.
/// - Nothing is acknowledged before its commit is durable.
public protocol ReportStore: Sendable {
    /// Stores a new report durably (the call returns after the commit reached the disk), or
    /// returns the earlier one for a repeated idempotency key; `IdempotencyKeyReused` for a key
    /// used by another request, `ResubmissionTooSoon` for a covid report the 14-day rule holds
    /// back (`ReportSubmission.checkResubmission`, decided inside the storing transaction).
    func submit(_ submission: ReportSubmission) async throws -> SubmissionOutcome

    /// The report, or nil.
    func report(id: String) async throws -> ReportRecord?

    /// Reports awaiting verification that no account filed (anonymous ones): what a flood of
    /// anonymous submissions grows, and what intake bounds.
    func pendingAnonymousCount() async throws -> Int

    /// Applies a status transition in one transaction with its audit entry and counter changes.
    /// With `expectedVersion`, the change only applies to that version (optimistic concurrency).
    func transition(reportID: String, _ transition: ReportTransition, reason: String?, actor: String,
                    expectedVersion: Int?) async throws -> ReportRecord
}
