/// A submission to store: the record plus how a retry is recognised.
public struct ReportSubmission: Sendable {
    public let record: ReportRecord
    /// Client-chosen key; a second submission with the same key by the same submitter returns the
    /// first report and stores nothing.
    /// Stored as given: callers pass a keyed digest of the client's key, not the key.
    public let idempotencyKey: String?
    /// A digest of the request that carried the key: a retry must repeat it, and another
    /// request with the same key is refused (`IdempotencyKeyReused`) rather than answered with
    /// the first report.
    public let requestDigest: String?

    public init(record: ReportRecord, idempotencyKey: String?, requestDigest: String? = nil) {
        self.record = record
        self.idempotencyKey = idempotencyKey
        self.requestDigest = requestDigest
    }
}
