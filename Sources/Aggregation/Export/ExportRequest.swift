import DomainKernel

/// A researcher's export: verified counts of one layer per area and bucket over a date range.
public struct ExportRequest: Sendable, Hashable {
    public var layer: String
    /// nil counts all kinds together.
    public var kind: ReportKind?
    public var basis: TimeBasis
    /// First day asked for; the table starts at the start of its bucket.
    public var from: Day
    /// Last day asked for (inclusive); the table ends at the end of its bucket.
    public var to: Day
    public var bucket: Bucket

    /// Creates a request.
    public init(layer: String, kind: ReportKind?, basis: TimeBasis, from: Day, to: Day, bucket: Bucket) {
        self.layer = layer
        self.kind = kind
        self.basis = basis
        self.from = from
        self.to = to
        self.bucket = bucket
    }
}
