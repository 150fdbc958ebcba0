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
    /// The published version of every area layer the report was placed against; nil when the
    /// store need not check them (see `checkPlacement`).
    public let placedOn: [String: Int]?

    public init(record: ReportRecord, idempotencyKey: String?, requestDigest: String? = nil, placedOn: [String: Int]? = nil) {
        self.record = record
        self.placedOn = placedOn
        self.idempotencyKey = idempotencyKey
        // Kept only beside a key: without one there is nothing to bind it to.
        self.requestDigest = idempotencyKey == nil ? nil : requestDigest
    }

    /// Whose keys a key is looked up among: the reporter's account, or every anonymous report.
    public var idempotencyScope: String { record.reporterID ?? "anonymous" }
}
