import DomainKernel
import Foundation
import ReportVerification

/// An earlier report of the same reporter and kind, for rules such as "one covid self-report
/// per 14 days", checked inside the transaction that stores the new one.
public struct PriorReport: Hashable, Sendable {
    public let id: String
    public let submittedAt: Date
    public let status: ReportStatus

    public init(id: String, submittedAt: Date, status: ReportStatus) {
        self.id = id
        self.submittedAt = submittedAt
        self.status = status
    }
}
