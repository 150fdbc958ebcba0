import DomainKernel

/// The atomic cells of one release, numbered densely: area (index in id order) × time segment ×
/// group (each breakdown group, then one slot for every other report). Every published number is
/// a sum of these. Numbering them in (area, segment, group) order lets suppression work on flat
/// arrays instead of hashed cell sets, and makes "cell order" plain integer order.
struct CellGrid {
    static let segmentCount = TimeSegment.allCases.count
    let areaCount: Int
    /// Breakdown groups plus the residual slot.
    let groupCount: Int

    var cellCount: Int { areaCount * Self.segmentCount * groupCount }

    func cell(area: Int, segment: Int, group: Int) -> Int { (area * Self.segmentCount + segment) * groupCount + group }
    func area(of cell: Int) -> Int { cell / (Self.segmentCount * groupCount) }
    func segment(of cell: Int) -> Int { cell / groupCount % Self.segmentCount }
    func group(of cell: Int) -> Int { cell % groupCount }

    /// The cells of one area and segment, every group: contiguous in this numbering.
    func cells(area: Int, segment: Int) -> Range<Int> {
        let first = cell(area: area, segment: segment, group: 0)
        return first..<(first + groupCount)
    }

    /// A set of segments as a bit mask (bit `rawValue`), the form publishability checks use.
    static func mask(_ segments: [TimeSegment]) -> UInt8 {
        segments.reduce(0) { $0 | 1 << UInt8($1.rawValue) }
    }

    /// The segment indices set in a mask, ascending.
    static func segments(in mask: UInt8) -> [Int] {
        (0..<segmentCount).filter { mask & 1 << UInt8($0) != 0 }
    }
}
