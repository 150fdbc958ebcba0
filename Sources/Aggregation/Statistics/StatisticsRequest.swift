import DomainKernel

/// Which numbers to compute: one layer, one kind or all kinds, one time basis, windows ending on `end`.
public struct StatisticsRequest: Sendable, Hashable {
    public var layer: String
    /// nil counts all kinds together.
    public var kind: ReportKind?
    public var basis: TimeBasis
    /// The inclusive last day of every window.
    public var end: Day
    /// The groups to break counts down by. Pass the kind's declared groups (for covid: student,
    /// faculty, staff) so that which groups are listed depends on nothing in the data; nil lists
    /// the non-empty groups found in the layer's counters, which reveals that a group occurs at all.
    public var groups: [BreakdownGroup]?

    /// Creates a request.
    public init(layer: String, kind: ReportKind?, basis: TimeBasis, end: Day, groups: [BreakdownGroup]? = nil) {
        self.layer = layer
        self.kind = kind
        self.basis = basis
        self.end = end
        self.groups = groups
    }
}
