import Foundation

/// The verification queue, review claims and viewer grants.
///
/// Concurrency contract: `claim` reads the live claim and writes the new one atomically, so two
/// verifiers claiming at once never both hold the report. Grants are audited in the granting
/// transaction (see `AuditLog` for the chain's ordering).
public protocol VerificationStore: Sendable {
    /// Reports in queue order: the filter's statuses in the order given (pending first by
    /// default), then oldest submission first; `cursor` continues a previous page.
    func queue(_ filter: QueueFilter, limit: Int, cursor: String?) async throws -> QueuePage

    /// Claims a report for `holder` until `expiresAt`; renews the holder's own claim; refuses
    /// while another holder's claim is live.
    func claim(reportID: String, holder: String, until expiresAt: Date, now: Date) async throws -> ReportClaim

    /// Releases a claim held by `holder` (no-op otherwise).
    func release(reportID: String, holder: String) async throws

    /// The live claim on a report, if any.
    func claim(reportID: String, now: Date) async throws -> ReportClaim?

    /// Grants a viewer read access to a report.
    func grant(reportID: String, viewerID: String, by admin: String) async throws

    /// Withdraws a grant.
    func revokeGrant(reportID: String, viewerID: String, by admin: String) async throws

    /// Whether the viewer was granted the report.
    func isGranted(reportID: String, viewerID: String) async throws -> Bool

    /// Ids of the reports granted to a viewer.
    func grantedReports(viewerID: String) async throws -> [String]
}
