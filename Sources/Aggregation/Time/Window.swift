import DomainKernel

/// A rolling window ending (inclusively) on the request's `end` day.
public enum Window: String, CaseIterable, Sendable, Codable {
    case d7 = "7d", d14 = "14d", d28 = "28d", all

    /// The disjoint time segments the window is made of.
    public var segments: [TimeSegment] {
        switch self {
        case .d7: [.days0to6]
        case .d14: [.days0to6, .days7to13]
        case .d28: [.days0to6, .days7to13, .days14to27]
        case .all: TimeSegment.allCases
        }
    }

    /// The segment covering the window of the same length just before this one; nil for `all`,
    /// which has nothing before it.
    public var previousSegment: TimeSegment? {
        switch self {
        case .d7: .days7to13
        case .d14: .days14to27
        case .d28: .days28to55
        case .all: nil
        }
    }
}
