/// A page of the queue and the cursor of the next one.
public struct QueuePage: Hashable, Sendable {
    public let reports: [ReportRecord]
    /// Opaque; nil on the last page.
    public let nextCursor: String?

    public init(reports: [ReportRecord], nextCursor: String?) {
        self.reports = reports
        self.nextCursor = nextCursor
    }

    /// The page of `limit` from rows read with one more than `limit` (each with its rank in the
    /// queue's order): the extra row only says that another page follows.
    public init(rows: [(report: ReportRecord, rank: Int)], limit: Int) {
        let page = rows.prefix(limit)
        reports = page.map(\.report)
        nextCursor = rows.count > limit
            ? page.last.map { QueueCursor(rank: $0.rank, submittedAt: Timestamp.format($0.report.submittedAt), id: $0.report.id).encoded } : nil
    }
}
