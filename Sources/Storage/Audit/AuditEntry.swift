import DomainKernel
import Foundation
import ReportVerification

/// One entry of the append-only audit trail. Each entry's hash covers its content and the
/// previous entry's hash, so an edited or deleted entry breaks the chain.
public struct AuditEntry: Hashable, Sendable, Codable {
    public let sequence: Int
    public let reportID: String?
    /// Account id, or `anonymous` / `system`.
    public let actor: String
    public let at: Date
    public let action: String
    public let fromStatus: ReportStatus?
    public let toStatus: ReportStatus?
    public let reason: String?
    public let hash: String

    public init(sequence: Int, reportID: String?, actor: String, at: Date, action: String, fromStatus: ReportStatus?, toStatus: ReportStatus?, reason: String?, hash: String) {
        self.sequence = sequence
        self.reportID = reportID
        self.actor = actor
        self.at = at
        self.action = action
        self.fromStatus = fromStatus
        self.toStatus = toStatus
        self.reason = reason
        self.hash = hash
    }
}
