import DomainKernel
import ReportVerification

/// Which reports the verification queue shows.
public struct QueueFilter: Hashable, Sendable {
    public var statuses: [ReportStatus]
    public var kind: ReportKind?
    public var layer: String?
    /// An area id; without `layer`, an area of that id in any layer.
    public var areaID: String?
    /// Occurrence day bounds, inclusive.
    public var from: Day?
    public var to: Day?

    public init(statuses: [ReportStatus] = [.pending], kind: ReportKind? = nil, layer: String? = nil, areaID: String? = nil,
                from: Day? = nil, to: Day? = nil) {
        self.statuses = statuses
        self.kind = kind
        self.layer = layer
        self.areaID = areaID
        self.from = from
        self.to = to
    }
}
