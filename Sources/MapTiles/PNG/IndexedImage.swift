/// An image as palette indices, found from premultiplied ARGB32 pixels (cairo's layout: one
/// native-endian `UInt32` per pixel, `0xAARRGGBB`, colour premultiplied by alpha).
///
/// A choropleth tile has a handful of flat colours plus the blends its anti-aliased edges make.
/// When there are at most 256 colours the palette is exact; otherwise the frequent colours (the
/// fills and the outline) stay exact and the rare edge blends are merged into buckets.
struct IndexedImage {
    /// Palette entries as premultiplied ARGB, at most 256.
    var palette: [UInt32]
    /// One palette index per pixel, row by row, no padding.
    var indices: [UInt8]

    /// The image as palette indices: exact when it has at most 256 colours, merged when it has
    /// more and `quantize` is set, nil otherwise.
    static func make(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, quantize: Bool) -> IndexedImage? {
        // One pass counts the colours and writes each pixel's entry number, which is its palette
        // index while there are at most 256 (entries keep their first-seen order): most tiles
        // are done then. Only an image of more colours is read a second time, for the merged
        // palette's indices. Counting and indexing in two passes was a fifth of encoding a tile.
        var table = ColorCounts()
        var indices = [UInt8](repeating: 0, count: width * height)
        indices.withUnsafeMutableBufferPointer { out in
            forEachRun(pixels, width: width, height: height, stride: stride) { p, start, n in
                out[start..<(start + n)].update(repeating: UInt8(truncatingIfNeeded: table.add(p, n)))
            }
        }
        if table.colors.count <= 256 { return IndexedImage(palette: table.colors, indices: indices) }
        guard quantize else { return nil }
        let (palette, entryIndex) = merged(table)
        indices.withUnsafeMutableBufferPointer { out in
            forEachRun(pixels, width: width, height: height, stride: stride) { p, start, n in
                out[start..<(start + n)].update(repeating: entryIndex[table.find(p)])
            }
        }
        return IndexedImage(palette: palette, indices: indices)
    }

    /// Calls `body` for each run of equal pixels along the rows: the pixel, the run's first
    /// position in row-by-row order without padding, and its length.
    @inline(__always)
    private static func forEachRun(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int,
                                   _ body: (_ pixel: UInt32, _ start: Int, _ count: Int) -> Void) {
        for y in 0..<height {
            let row = pixels.baseAddress!.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
            var x = 0
            while x < width {
                let p = row[x]
                var n = 1
                while x + n < width && row[x + n] == p { n += 1 }
                body(p, y * width + x, n)
                x += n
            }
        }
    }

    /// Palette and entry-to-index map for more than 256 colours. Colours covering at least
    /// `exactShare` of the pixels (up to 128 of them) keep exact entries; the others are grouped
    /// by their high bits, dropping the fewest low bits that make the groups fit in the rest of
    /// the palette, and each group is drawn in the pixel-weighted mean of its members.
    static func merged(_ table: ColorCounts) -> (palette: [UInt32], entryIndex: [UInt8]) {
        let total = table.counts.reduce(0, +)
        let ranked = table.colors.indices.sorted { table.counts[$0] > table.counts[$1] }
        let exactCount = min(ranked.prefix { table.counts[$0] * 2000 >= total }.count, 128)
        var palette = ranked.prefix(exactCount).map { table.colors[$0] }
        var entryIndex = [UInt8](repeating: 0, count: table.colors.count)
        for (i, e) in ranked.prefix(exactCount).enumerated() { entryIndex[e] = UInt8(i) }
        let rare = ranked.dropFirst(exactCount)
        let room = 256 - exactCount

        var groups: [UInt32: Int] = [:]
        var shift: UInt32 = 1
        while true {
            let m8 = UInt32(0xff) << shift & 0xff
            let m = m8 << 24 | m8 << 16 | m8 << 8 | m8
            groups.removeAll(keepingCapacity: true)
            for e in rare where groups.count <= room {
                let key = table.colors[e] & m
                if groups[key] == nil { groups[key] = groups.count }
            }
            if groups.count <= room || shift == 8 {
                var sums = [(a: Int, r: Int, g: Int, b: Int, n: Int)](repeating: (0, 0, 0, 0, 0), count: groups.count)
                for e in rare {
                    let p = table.colors[e], n = table.counts[e]
                    let k = groups[p & m]!
                    sums[k].a += Int(p >> 24) * n; sums[k].r += Int(p >> 16 & 0xff) * n
                    sums[k].g += Int(p >> 8 & 0xff) * n; sums[k].b += Int(p & 0xff) * n
                    sums[k].n += n
                    entryIndex[e] = UInt8(exactCount + k)
                }
                for s in sums {
                    // The mean of premultiplied colours is premultiplied (each channel ≤ alpha).
                    let h = s.n / 2
                    palette.append(UInt32((s.a + h) / s.n) << 24 | UInt32((s.r + h) / s.n) << 16 | UInt32((s.g + h) / s.n) << 8 | UInt32((s.b + h) / s.n))
                }
                return (palette, entryIndex)
            }
            shift += 1
        }
    }
}
