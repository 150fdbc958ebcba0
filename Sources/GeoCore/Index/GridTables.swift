import Support

/// The three tables of an `AreaGrid` in memory this object owns: allocated by a build, or a
/// read-only mapping of an index file (`AreaIndexFile`).
///
/// Plain buffers rather than arrays, so that both sources look alike to the look-up and a
/// mapped index costs resident memory only for the cells points actually fall in.
/// `@unchecked Sendable` is sound because the tables are written only before `init` returns
/// and only read afterwards.
final class GridTables: @unchecked Sendable {
    /// Groups of cell c are `groups[cellStart[c] ..< cellStart[c + 1]]`.
    let cellStart: UnsafeBufferPointer<Int32>
    let groups: UnsafeBufferPointer<CellGroup>
    let edges: UnsafeBufferPointer<CellEdge>
    /// The mapping the tables point into; nil when they were allocated here.
    private let mapping: MappedFile?

    /// Takes ownership of freshly allocated and initialized tables.
    init(allocatedCellStart: UnsafeMutableBufferPointer<Int32>, groups: UnsafeMutableBufferPointer<CellGroup>,
         edges: UnsafeMutableBufferPointer<CellEdge>) {
        cellStart = UnsafeBufferPointer(allocatedCellStart)
        self.groups = UnsafeBufferPointer(groups)
        self.edges = UnsafeBufferPointer(edges)
        mapping = nil
    }

    /// Tables inside a mapping, which this object keeps alive.
    init(mapping: MappedFile, cellStart: UnsafeBufferPointer<Int32>, groups: UnsafeBufferPointer<CellGroup>,
         edges: UnsafeBufferPointer<CellEdge>) {
        self.cellStart = cellStart
        self.groups = groups
        self.edges = edges
        self.mapping = mapping
    }

    deinit {
        guard mapping == nil else { return }
        UnsafeMutableBufferPointer(mutating: cellStart).deallocate()
        UnsafeMutableBufferPointer(mutating: groups).deallocate()
        UnsafeMutableBufferPointer(mutating: edges).deallocate()
    }

    /// Whether the tables are read from a file mapping rather than allocated.
    var isMapped: Bool { mapping != nil }

    /// Bytes a point's look-up may read from.
    var byteCount: Int {
        cellStart.count * MemoryLayout<Int32>.stride + groups.count * MemoryLayout<CellGroup>.stride + edges.count * MemoryLayout<CellEdge>.stride
    }
}
