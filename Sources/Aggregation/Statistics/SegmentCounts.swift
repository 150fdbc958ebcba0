import DomainKernel

/// Counts per `TimeSegment`: the finest time resolution statistics keep, from which every
/// window and previous window is summed.
public struct SegmentCounts: Sendable, Hashable {
    private var values = [Int](repeating: 0, count: TimeSegment.allCases.count)

    /// All zero.
    public init() {}

    /// The count of one segment.
    public subscript(segment: TimeSegment) -> Int {
        get { values[segment.rawValue] }
        set { values[segment.rawValue] = newValue }
    }

    /// The sum over some segments.
    public func sum(_ segments: [TimeSegment]) -> Int {
        segments.reduce(0) { $0 + self[$1] }
    }

    /// The count of a window.
    public func count(_ window: Window) -> Int { sum(window.segments) }

    /// The count of the window before `window`; nil for `all`.
    public func previous(_ window: Window) -> Int? { window.previousSegment.map { self[$0] } }

    /// Adds `other` times `factor`.
    mutating func add(_ other: SegmentCounts, times factor: Int) {
        for i in values.indices { values[i] += factor * other.values[i] }
    }

    static func + (lhs: SegmentCounts, rhs: SegmentCounts) -> SegmentCounts {
        var out = lhs
        for s in TimeSegment.allCases { out[s] += rhs[s] }
        return out
    }
}
