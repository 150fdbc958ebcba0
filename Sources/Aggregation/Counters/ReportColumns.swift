import DomainKernel

/// Reports as parallel columns with their strings interned to small integers: the shape a bulk
/// recount reads. Hashing five strings per counter cell is what makes a recount of a million
/// reports slow; with columns, strings are hashed once per distinct value.
public struct ReportColumns: Sendable {
    /// Distinct values, indexed by the per-report columns below.
    public var kinds: [ReportKind] = []
    public var statuses: [ReportStatus] = []
    public var groups: [BreakdownGroup?] = []
    /// Distinct (layer, area) placements, indexed by `placementPlace`.
    public var places: [AreaRef] = []

    /// Per report: indices into `kinds`, `statuses`, `groups`.
    public var kind: [Int32] = []
    public var status: [Int32] = []
    public var group: [Int32] = []
    /// Per report: `Day.ordinal`s; `verifiedOn` is `noDay` when the report has no verification day.
    public var occurredOn: [Int32] = []
    public var submittedOn: [Int32] = []
    public var verifiedOn: [Int32] = []

    /// One row per placement of a report in a layer: the report's index and the place's index.
    public var placementReport: [Int32] = []
    public var placementPlace: [Int32] = []

    /// Marks a missing verification day.
    public static let noDay = Int32.min

    /// Empty columns, to be filled directly (e.g. from a store's result set).
    public init() {}

    /// The columns of a list of reports, strings interned in order of first appearance.
    public init(_ reports: [ReportFacts]) {
        var kindIndex: [ReportKind: Int32] = [:], statusIndex: [ReportStatus: Int32] = [:], groupIndex: [BreakdownGroup?: Int32] = [:]
        var placeIndex: [AreaRef: Int32] = [:]
        func intern<T: Hashable>(_ value: T, _ index: inout [T: Int32], _ values: inout [T]) -> Int32 {
            if let i = index[value] { return i }
            let i = Int32(values.count)
            index[value] = i
            values.append(value)
            return i
        }
        for (r, report) in reports.enumerated() {
            kind.append(intern(report.kind, &kindIndex, &kinds))
            status.append(intern(report.status, &statusIndex, &statuses))
            group.append(intern(report.group, &groupIndex, &groups))
            occurredOn.append(Int32(report.occurredOn.ordinal))
            submittedOn.append(Int32(report.submittedOn.ordinal))
            verifiedOn.append(report.verifiedOn.map { Int32($0.ordinal) } ?? Self.noDay)
            for area in report.areas {
                placementReport.append(Int32(r))
                placementPlace.append(intern(area, &placeIndex, &places))
            }
        }
    }

    /// The number of reports.
    public var count: Int { kind.count }
}
