import DomainKernel

/// The disjoint pieces, counted back from the end day, that every window and previous window is
/// a union of. Disclosure control reasons about these pieces because differences of nested
/// windows reveal exactly them.
public enum TimeSegment: Int, CaseIterable, Sendable, Comparable {
    /// Days 0–6 before the end day (the end day itself is day 0).
    case days0to6
    /// Days 7–13 before the end day.
    case days7to13
    /// Days 14–27 before the end day.
    case days14to27
    /// Days 28–55 before the end day.
    case days28to55
    /// Day 56 and everything earlier.
    case older

    /// The segment holding a day `daysBeforeEnd` days before the end day; nil for days after it.
    public init?(daysBeforeEnd: Int) {
        switch daysBeforeEnd {
        case ..<0: return nil
        case 0...6: self = .days0to6
        case 7...13: self = .days7to13
        case 14...27: self = .days14to27
        case 28...55: self = .days28to55
        default: self = .older
        }
    }

    public static func < (lhs: TimeSegment, rhs: TimeSegment) -> Bool { lhs.rawValue < rhs.rawValue }
}
