import DomainKernel

/// One incremental counter cell: how many reports of a kind and status fall on a day, by one
/// time basis, in one area of one layer, for one breakdown group.
public struct CounterKey: Hashable, Sendable {
    public let layer: String
    public let areaID: String
    public let kind: ReportKind
    public let status: ReportStatus
    public let basis: TimeBasis
    public let day: Day
    /// Breakdown group: a covid report's affiliation (student / faculty / staff), nil otherwise.
    public let group: BreakdownGroup?

    /// Creates a counter cell key.
    public init(layer: String, areaID: String, kind: ReportKind, status: ReportStatus, basis: TimeBasis, day: Day, group: BreakdownGroup?) {
        self.layer = layer
        self.areaID = areaID
        self.kind = kind
        self.status = status
        self.basis = basis
        self.day = day
        self.group = group
    }
}
