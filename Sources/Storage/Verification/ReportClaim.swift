import Foundation

/// A verifier's claim on a report: others see who holds it until it expires.
public struct ReportClaim: Hashable, Sendable, Codable {
    public let reportID: String
    public let holder: String
    public let expiresAt: Date

    public init(reportID: String, holder: String, expiresAt: Date) {
        self.reportID = reportID
        self.holder = holder
        self.expiresAt = expiresAt
    }
}
