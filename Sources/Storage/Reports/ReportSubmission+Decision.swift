import DomainKernel
import Foundation
import ReportVerification

extension ReportSubmission {
    /// What an earlier use of this submission's idempotency key makes of it: the earlier report
    /// again for the same request, a refusal for a different one.
    /// - Parameter request: the digest of the request that used the key first.
    public func replay(of earlier: ReportRecord, request: String?) throws(IdempotencyKeyReused) -> SubmissionOutcome {
        guard request == requestDigest else { throw IdempotencyKeyReused() }
        return .replayed(earlier)
    }

    /// Refuses a covid self-report the 14-day rule holds back, given the reporter's earlier
    /// reports of the same kind (the store reads them in the transaction that would store this
    /// one, so two racing reports cannot both pass).
    public func checkResubmission(after prior: [PriorReport]) throws(ResubmissionTooSoon) {
        guard record.kind == .covid, record.reporterID != nil,
              let opens = ResubmissionRule.nextAllowed(after: prior.map { ($0.submittedAt, $0.status) }, now: record.submittedAt) else { return }
        throw ResubmissionTooSoon(opens: opens)
    }
}
