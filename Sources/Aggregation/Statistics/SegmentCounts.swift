import DomainKernel

/// Counts per `TimeSegment`: the finest time resolution statistics keep, from which every
/// window and previous window is summed.
///
/// Five inline counts rather than an array: every area of a layer holds two or more of these
/// (verified per group, pending), and as arrays they were an allocation each — the verifiers'
/// live view of 300,000 areas kept 220 MB of raw numbers.
public struct SegmentCounts: Sendable, Hashable {
    private var days0to6 = 0, days7to13 = 0, days14to27 = 0, days28to55 = 0, older = 0

    /// All zero.
    public init() {}

    /// The count of one segment.
    public subscript(segment: TimeSegment) -> Int {
        get {
            switch segment {
            case .days0to6: days0to6
            case .days7to13: days7to13
            case .days14to27: days14to27
            case .days28to55: days28to55
            case .older: older
            }
        }
        set {
            switch segment {
            case .days0to6: days0to6 = newValue
            case .days7to13: days7to13 = newValue
            case .days14to27: days14to27 = newValue
            case .days28to55: days28to55 = newValue
            case .older: older = newValue
            }
        }
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
        days0to6 += factor * other.days0to6
        days7to13 += factor * other.days7to13
        days14to27 += factor * other.days14to27
        days28to55 += factor * other.days28to55
        older += factor * other.older
    }

    static func + (lhs: SegmentCounts, rhs: SegmentCounts) -> SegmentCounts {
        var out = lhs
        for s in TimeSegment.allCases { out[s] += rhs[s] }
        return out
    }
}
