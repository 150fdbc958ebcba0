import ReportVerification

/// Which reports the verification queue shows.
public struct QueueFilter: Hashable, Sendable {
    public var statuses: [ReportStatus]
    public var kind: String?
    public var layer: String?
    public var areaID: String?
    /// Occurrence day bounds, `YYYY-MM-DD`, inclusive.
    public var from: String?
    public var to: String?

    public init(statuses: [ReportStatus] = [.pending], kind: String? = nil, layer: String? = nil, areaID: String? = nil,
                from: String? = nil, to: String? = nil) {
        self.statuses = statuses
        self.kind = kind
        self.layer = layer
        self.areaID = areaID
        self.from = from
        self.to = to
    }
}
