import Foundation
import Support

/// A layer's border topology saved to a file and read back, so that a start's first tile does
/// not rebuild what the layer version already had: at 300,000 areas the build took 1.5 s of a
/// first tile's 3 s.
///
/// Layout, in 8-byte words in the machine's byte order: a header of `headerWords` words, then
/// the arcs' coordinates, the arcs' starts, the uses (arc `a` as `a`, reversed as `~a`), and the
/// ring, polygon and area starts, each section padded to a whole word. The header records the
/// byte order, the key of the areas and a digest of everything after it, checked before use;
/// the tables' counts are checked against each other, so a file that passes is one this code
/// wrote for these areas.
enum TopologyFile {
    static let magic: UInt64 = 0x3130_4F50_4F54_5347 // "GSTOPO01" read little-endian
    /// Bumped whenever the layout or the topology's construction changes.
    static let format: UInt64 = 1
    static let byteOrderMark: UInt64 = 0x0102_0304_0506_0708
    static let headerWords = 16

    /// Writes the file at `url`, which must not exist yet.
    static func write(_ topology: ArcTopology, key: ContentDigest, to url: URL) throws {
        let uses = topology.uses.map { $0.reversed ? ~$0.arc : $0.arc }
        let arcs = topology.arcs
        try arcs.points.withUnsafeBytes { points in
            try arcs.starts.withUnsafeBytes { arcStarts in
                try uses.withUnsafeBytes { uses in
                    try topology.ringStarts.withUnsafeBytes { rings in
                        try topology.polygonStarts.withUnsafeBytes { polygons in
                            try topology.areaStarts.withUnsafeBytes { areas in
                                let sections = [points, arcStarts, uses, rings, polygons, areas]
                                var payload = ContentDigest()
                                for s in sections { WordFile.addPadded(s, to: &payload) }
                                let (k0, k1) = key.value, (p0, p1) = payload.value
                                let header: [UInt64] = [
                                    magic, format, byteOrderMark, k0, k1, UInt64(topology.areaCount),
                                    UInt64(arcs.points.count), UInt64(arcs.starts.count), UInt64(topology.uses.count),
                                    UInt64(topology.ringStarts.count), UInt64(topology.polygonStarts.count), UInt64(topology.areaStarts.count),
                                    0, 0, p0, p1,
                                ]
                                assert(header.count == headerWords)
                                try WordFile.write(header, sections: sections, to: url)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Reads the file back for areas with this key, checking its header, its digest and that its
    /// tables fit each other.
    static func read(_ url: URL, key: ContentDigest, areaCount: Int) throws -> ArcTopology {
        let file = try MappedFile(url: url)
        let bytes = file.bytes
        let name = url.lastPathComponent
        guard bytes.count >= headerWords * 8 else { throw WordFile.Failure("\(name) is shorter than its header") }
        func word(_ k: Int) -> UInt64 { bytes.load(fromByteOffset: 8 * k, as: UInt64.self) }
        guard word(0) == magic else { throw WordFile.Failure("\(name) is not a tile topology file") }
        guard word(1) == format else { throw WordFile.Failure("\(name) has format \(word(1)), this build reads \(format)") }
        guard word(2) == byteOrderMark else { throw WordFile.Failure("\(name) was written by a machine of another kind") }
        let (k0, k1) = key.value
        guard word(3) == k0, word(4) == k1, word(5) == UInt64(areaCount) else { throw WordFile.Failure("\(name) was built from other areas") }
        let counts = (6...11).map { Int(word($0)) }
        let sizes = [8 * counts[0]] + counts.dropFirst().map { 4 * $0 }
        let expected = headerWords * 8 + sizes.reduce(0) { $0 + $1 + WordFile.padding($1) }
        guard counts.allSatisfy({ $0 >= 0 && $0 < Int(Int32.max) }), bytes.count == expected else {
            throw WordFile.Failure("\(name) is truncated or its tables do not fit its header")
        }
        // Digested where it is mapped: the tables are copied out of the mapping next anyway, so
        // reading the file a second time to spare resident memory (as the area index does) buys nothing.
        var payload = ContentDigest()
        payload.add(words: UnsafeRawBufferPointer(rebasing: bytes[(headerWords * 8)...]))
        let (p0, p1) = payload.value
        guard word(14) == p0, word(15) == p1 else { throw WordFile.Failure("\(name) does not match its digest (damaged)") }

        var offset = headerWords * 8
        func section<T>(_ type: T.Type, _ count: Int) -> [T] {
            let size = MemoryLayout<T>.stride * count
            defer { offset += size + WordFile.padding(size) }
            return Array(UnsafeBufferPointer(start: (bytes.baseAddress! + offset).assumingMemoryBound(to: T.self), count: count))
        }
        let points = section(Double.self, counts[0])
        let arcStarts = section(Int32.self, counts[1])
        let uses = section(Int32.self, counts[2])
        let rings = section(Int32.self, counts[3]), polygons = section(Int32.self, counts[4]), areas = section(Int32.self, counts[5])
        guard Self.ascending(arcStarts, from: 0, to: points.count / 2), points.count % 2 == 0,
              Self.ascending(rings, from: 0, to: uses.count), Self.ascending(polygons, from: 0, to: rings.count - 1),
              Self.ascending(areas, from: 0, to: polygons.count - 1), areas.count == areaCount + 1,
              uses.allSatisfy({ Int($0 < 0 ? ~$0 : $0) < arcStarts.count - 1 }) else {
            throw WordFile.Failure("\(name) has tables that do not fit each other")
        }
        return ArcTopology(arcs: ArcSet(points: points, starts: arcStarts),
                           uses: uses.map { $0 < 0 ? ArcTopology.Use(arc: ~$0, reversed: true) : ArcTopology.Use(arc: $0, reversed: false) },
                           ringStarts: rings, polygonStarts: polygons, areaStarts: areas)
    }

    /// Whether `starts` runs from `first` to `last` without going back.
    private static func ascending(_ starts: [Int32], from first: Int, to last: Int) -> Bool {
        guard let head = starts.first, let tail = starts.last, Int(head) == first, Int(tail) == last else { return false }
        return zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 }
    }
}
