/// The atomic cells a published number sums over.
struct CellLayout {
    let groupCount: Int

    /// Cells of the given areas and segments, for some groups or (nil) all of them.
    func cells(areas: [Int], segments: [TimeSegment], groups: [Int]?) -> Set<AtomicCell> {
        var out = Set<AtomicCell>()
        for area in areas {
            for segment in segments {
                for group in groups ?? Array(0..<groupCount) { out.insert(AtomicCell(area: area, segment: segment, group: group)) }
            }
        }
        return out
    }
}
