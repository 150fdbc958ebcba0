import DomainKernel
import Foundation
import Support

/// An area index's grid and interior points saved to a file and read back by mapping it, so
/// that a start does not rebuild what the layer version already had: at 300,000 areas the build
/// took 3.2 s of a 4.8 s start and its 526 MB of tables stayed resident.
///
/// Layout, in 8-byte words in the machine's byte order: a header of `headerWords` words, then
/// interior points (lon, lat per area; NaN for none), the cell starts, the groups and the edges,
/// each section padded to a whole word. The header records the byte order and the tables'
/// strides, so a file from another kind of machine is refused rather than misread, and a digest
/// of everything after it, checked before the tables are used.
enum AreaIndexFile {
    static let magic: UInt64 = 0x3130_5844_4941_5347 // "GSAIDX01" read little-endian
    /// Bumped whenever the layout or the grid's construction changes.
    static let format: UInt64 = 1
    static let byteOrderMark: UInt64 = 0x0102_0304_0506_0708
    static let headerWords = 24

    /// What a file holds besides the areas themselves.
    struct Contents {
        let frame: GridFrame
        let boundingBox: BoundingBox?
        let tables: GridTables
        let interiorPoints: [Position?]
    }

    /// Why a file was not used.
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes the file at `url`, which must not exist yet (callers write a temporary name and
    /// rename it). Not flushed: a file torn by a crash fails its digest at the next read and is
    /// built again, and flushing half a gigabyte would hold up the start that wrote it.
    static func write(_ index: AreaIndex, interiorPoints: [Position?], key: ContentDigest, to url: URL) throws {
        precondition(interiorPoints.count == index.areas.count, "one interior point per area")
        var points = [Double]()
        points.reserveCapacity(2 * interiorPoints.count)
        for p in interiorPoints { points.append(p?.lon ?? .nan); points.append(p?.lat ?? .nan) }
        let grid = index.grid
        return try points.withUnsafeBytes { pointBytes in
            let sections = [pointBytes, UnsafeRawBufferPointer(grid.cellStart), UnsafeRawBufferPointer(grid.groups),
                            UnsafeRawBufferPointer(grid.edges)]
            var payload = ContentDigest()
            for s in sections { WordFile.addPadded(s, to: &payload) }
            try WordFile.write(headerWords(index: index, key: key, payload: payload), sections: sections, to: url)
        }
    }

    /// Reads the file back for areas with this key: checks the header and (unless the caller
    /// has just written the file) the digest of the whole payload, then maps the tables.
    static func read(_ url: URL, key: ContentDigest, areaCount: Int, checkDigest: Bool = true) throws -> Contents {
        let file = try MappedFile(url: url)
        let bytes = file.bytes
        guard bytes.count >= headerWords * 8 else { throw Refused(description: "\(url.lastPathComponent) is shorter than its header") }
        func word(_ k: Int) -> UInt64 { bytes.load(fromByteOffset: 8 * k, as: UInt64.self) }
        guard word(0) == magic else { throw Refused(description: "\(url.lastPathComponent) is not an area index file") }
        guard word(1) == format else { throw Refused(description: "\(url.lastPathComponent) has format \(word(1)), this build reads \(format)") }
        guard word(2) == byteOrderMark, word(3) == UInt64(MemoryLayout<CellGroup>.stride), word(4) == UInt64(MemoryLayout<CellEdge>.stride) else {
            throw Refused(description: "\(url.lastPathComponent) was written by a machine of another kind")
        }
        let (k0, k1) = key.value
        guard word(5) == k0, word(6) == k1, word(7) == UInt64(areaCount) else {
            throw Refused(description: "\(url.lastPathComponent) was built from other areas")
        }
        let nx = Int(word(8)), ny = Int(word(9))
        guard (1...GridFrame.maximumSide).contains(nx), (1...GridFrame.maximumSide).contains(ny) else {
            throw Refused(description: "\(url.lastPathComponent) has a grid of \(nx) × \(ny) cells")
        }
        func double(_ k: Int) -> Double { Double(bitPattern: word(k)) }
        let frame = GridFrame(x0: double(10), y0: double(11), x1: double(12), y1: double(13), nx: nx, ny: ny)
        let box = word(14) == 1 ? BoundingBox(west: double(15), south: double(16), east: double(17), north: double(18)) : nil
        let cellStarts = Int(word(19)), groupCount = Int(word(20)), edgeCount = Int(word(21))
        let sizes = [16 * areaCount, 4 * cellStarts, MemoryLayout<CellGroup>.stride * groupCount, MemoryLayout<CellEdge>.stride * edgeCount]
        let expected = headerWords * 8 + sizes.reduce(0) { $0 + $1 + WordFile.padding($1) }
        guard cellStarts == nx * ny + 1, groupCount >= 0, edgeCount >= 0, bytes.count == expected else {
            throw Refused(description: "\(url.lastPathComponent) is truncated or its tables do not fit its grid")
        }
        if checkDigest {
            var payload = ContentDigest()
            try WordFile.digestFromDisk(url, from: headerWords * 8, into: &payload)
            let (p0, p1) = payload.value
            guard word(22) == p0, word(23) == p1 else { throw Refused(description: "\(url.lastPathComponent) does not match its digest (damaged)") }
        }

        var offset = headerWords * 8
        func section<T>(_ type: T.Type, _ count: Int, _ size: Int) -> UnsafeBufferPointer<T> {
            let start = bytes.baseAddress! + offset
            offset += size + WordFile.padding(size)
            return UnsafeBufferPointer(start: start.assumingMemoryBound(to: T.self), count: count)
        }
        let points = section(Double.self, 2 * areaCount, sizes[0])
        let cellStart = section(Int32.self, cellStarts, sizes[1])
        let groups = section(CellGroup.self, groupCount, sizes[2])
        let edges = section(CellEdge.self, edgeCount, sizes[3])
        guard cellStart[0] == 0, Int(cellStart[cellStarts - 1]) == groupCount else {
            throw Refused(description: "\(url.lastPathComponent) has cell starts that do not cover its groups")
        }
        let interior: [Position?] = (0..<areaCount).map { i in
            points[2 * i].isNaN ? nil : try? Position(lon: points[2 * i], lat: points[2 * i + 1])
        }
        return Contents(frame: frame, boundingBox: box,
                        tables: GridTables(mapping: file, cellStart: cellStart, groups: groups, edges: edges),
                        interiorPoints: interior)
    }

    private static func headerWords(index: AreaIndex, key: ContentDigest, payload: ContentDigest) -> [UInt64] {
        let f = index.grid.frame
        let b = index.boundingBox
        let (k0, k1) = key.value, (p0, p1) = payload.value
        let header: [UInt64] = [
            magic, format, byteOrderMark, UInt64(MemoryLayout<CellGroup>.stride), UInt64(MemoryLayout<CellEdge>.stride),
            k0, k1, UInt64(index.areas.count), UInt64(f.nx), UInt64(f.ny),
            f.x0.bitPattern, f.y0.bitPattern, f.x1.bitPattern, f.y1.bitPattern,
            b == nil ? 0 : 1, (b?.west ?? 0).bitPattern, (b?.south ?? 0).bitPattern, (b?.east ?? 0).bitPattern, (b?.north ?? 0).bitPattern,
            UInt64(index.grid.cellStart.count), UInt64(index.grid.groups.count), UInt64(index.grid.edges.count),
            p0, p1,
        ]
        assert(header.count == headerWords)
        return header
    }
}

extension AreaIndex {
    /// The key an index file is saved under: the file format, the grid's density and every
    /// id and coordinate, in index order. Any change to the areas gives another key.
    static func contentKey(ofSorted areas: [IndexedArea], cellsPerSegment: Double) -> ContentDigest {
        var d = ContentDigest()
        d.add(AreaIndexFile.format)
        d.add(cellsPerSegment)
        IndexedArea.addContent(of: areas, to: &d)
        return d
    }
}

extension IndexedArea {
    /// Adds every id and coordinate of `areas`, in their order, to a digest: what files derived
    /// from a layer's areas are keyed by.
    package static func addContent(of areas: [IndexedArea], to d: inout ContentDigest) {
        d.add(areas.count)
        for a in areas {
            d.add(a.id)
            d.add(a.polygons.count)
            for p in a.polygons {
                d.add(p.rings.count)
                for ring in p.rings {
                    d.add(ring.count)
                    for q in ring { d.add(q.lon); d.add(q.lat) }
                }
            }
        }
    }
}
