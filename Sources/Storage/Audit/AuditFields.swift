import DomainKernel

/// The content of an audit entry, as hashed: the stored text of each field.
public struct AuditFields: Sendable, Equatable {
    public let reportID: String?
    /// Account id, or `anonymous` / `system`.
    public let actor: String
    /// The stored timestamp text (`Timestamp.format`).
    public let at: String
    public let action: String
    public let from: ReportStatus?
    public let to: ReportStatus?
    public let reason: String?

    public init(reportID: String?, actor: String, at: String, action: String, from: ReportStatus? = nil, to: ReportStatus? = nil,
                reason: String? = nil) {
        self.reportID = reportID
        self.actor = actor
        self.at = at
        self.action = action
        self.from = from
        self.to = to
        self.reason = reason
    }
}
