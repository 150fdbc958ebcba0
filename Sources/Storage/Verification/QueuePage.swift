/// A page of the queue and the cursor of the next one.
public struct QueuePage: Hashable, Sendable {
    public let reports: [ReportRecord]
    /// Opaque; nil on the last page.
    public let nextCursor: String?

    public init(reports: [ReportRecord], nextCursor: String?) {
        self.reports = reports
        self.nextCursor = nextCursor
    }
}
