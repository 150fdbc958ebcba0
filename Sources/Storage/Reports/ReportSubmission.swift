/// A submission to store: the record plus how a retry is recognised.
public struct ReportSubmission: Sendable {
    public let record: ReportRecord
    /// Client-chosen key; a second submission with the same key by the same submitter returns the
    /// first report and stores nothing.
    public let idempotencyKey: String?
    public init(record: ReportRecord, idempotencyKey: String?) {
        self.record = record
        self.idempotencyKey = idempotencyKey
    }
}
