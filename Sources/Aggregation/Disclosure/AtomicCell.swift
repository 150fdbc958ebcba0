/// The smallest quantity one release is built from: one area (index in id order), one time
/// segment, one breakdown group (index into the breakdown groups; the index after the last
/// stands for every report in no breakdown group). Every published number is a sum of these.
struct AtomicCell: Hashable, Comparable {
    let area: Int
    let segment: TimeSegment
    let group: Int

    static func < (lhs: AtomicCell, rhs: AtomicCell) -> Bool {
        (lhs.area, lhs.segment.rawValue, lhs.group) < (rhs.area, rhs.segment.rawValue, rhs.group)
    }
}
