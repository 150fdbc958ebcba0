import DomainKernel

/// One count a release may show, as the cells it sums: some segments of one group or of all.
/// Listing them once lets scoring and the release ask the plan the same questions.
struct PublishedNumber: Sendable {
    enum Role: Sendable {
        case count(Window)
        case previous(Window)
        case group(Window, Int)
    }

    let role: Role
    let segments: UInt8
    /// A breakdown group's index; nil for every group together.
    let group: Int?

    /// Every count, previous window and group count of one area (or of the total), in window order.
    static func all(groupCount: Int) -> [PublishedNumber] {
        var out: [PublishedNumber] = []
        for window in Window.allCases {
            out.append(PublishedNumber(role: .count(window), segments: CellGrid.mask(window.segments), group: nil))
            if let segment = window.previousSegment {
                out.append(PublishedNumber(role: .previous(window), segments: CellGrid.mask([segment]), group: nil))
            }
            for group in 0..<groupCount {
                out.append(PublishedNumber(role: .group(window, group), segments: CellGrid.mask(window.segments), group: group))
            }
        }
        return out
    }
}
