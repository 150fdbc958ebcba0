import DomainKernel

/// What the counters need to know of one report, nothing more: no identity, no text, no
/// location beyond the areas. Storage builds it from its rows before and after every change.
public struct ReportFacts: Hashable, Sendable {
    public var kind: ReportKind
    public var status: ReportStatus
    public var occurredOn: Day
    public var submittedOn: Day
    /// The day of the transition into `verified`; kept after a revocation, but counted only while verified.
    public var verifiedOn: Day?
    /// Breakdown group (nil when the kind has none).
    public var group: BreakdownGroup?
    /// One placement per layer the report was assigned in.
    public var areas: [AreaRef]

    /// Creates the facts of a report.
    public init(kind: ReportKind, status: ReportStatus, occurredOn: Day, submittedOn: Day, verifiedOn: Day? = nil, group: BreakdownGroup? = nil, areas: [AreaRef]) {
        self.kind = kind
        self.status = status
        self.occurredOn = occurredOn
        self.submittedOn = submittedOn
        self.verifiedOn = verifiedOn
        self.group = group
        self.areas = areas
    }
}
