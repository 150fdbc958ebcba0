/// An image as palette indices, found from premultiplied ARGB32 pixels (cairo's layout: one
/// native-endian `UInt32` per pixel, `0xAARRGGBB`, colour premultiplied by alpha).
///
/// A choropleth tile has a handful of flat colours plus the blends its anti-aliased edges make,
/// usually well under 256, so an exact palette is the common case and costs one hash probe per
/// run of equal pixels.
struct IndexedImage {
    /// Palette entries as premultiplied ARGB, at most 256.
    var palette: [UInt32]
    /// One palette index per pixel, row by row, no padding.
    var indices: [UInt8]
    /// Whether colours were merged to fit 256 entries (the image is then approximate).
    var quantized: Bool

    /// The exact palette of an image, or nil when it has more than 256 colours.
    static func exact(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int) -> IndexedImage? {
        // Open addressing over 1024 slots: at most 256 keys, so probes stay short.
        var keys = [UInt32](repeating: 0, count: 1024)
        var slots = [Int16](repeating: -1, count: 1024)
        var palette: [UInt32] = []
        var indices = [UInt8](repeating: 0, count: width * height)
        var last: UInt32 = 0
        var lastIndex: UInt8 = 0
        var haveLast = false
        let ok: Bool = indices.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = pixels.baseAddress!.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    let p = row[x]
                    if haveLast && p == last { out[y * width + x] = lastIndex; continue }
                    var h = Int((p &* 0x9E3779B1) >> 22)
                    while true {
                        let s = slots[h]
                        if s < 0 {
                            guard palette.count < 256 else { return false }
                            slots[h] = Int16(palette.count)
                            keys[h] = p
                            lastIndex = UInt8(palette.count)
                            palette.append(p)
                            break
                        }
                        if keys[h] == p { lastIndex = UInt8(s); break }
                        h = (h + 1) & 1023
                    }
                    last = p
                    haveLast = true
                    out[y * width + x] = lastIndex
                }
            }
            return true
        }
        return ok ? IndexedImage(palette: palette, indices: indices, quantized: false) : nil
    }

    /// A 256-colour approximation: the 256 most frequent colours (the flat fills and outline,
    /// which must stay exact) form the palette, and every rarer colour, an edge blend, takes the
    /// nearest entry in premultiplied RGBA space.
    static func quantized(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int) -> IndexedImage {
        var counts: [UInt32: Int] = [:]
        for y in 0..<height {
            let row = pixels.baseAddress!.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
            var x = 0
            while x < width {
                let p = row[x]
                var n = 1
                while x + n < width && row[x + n] == p { n += 1 }
                counts[p, default: 0] += n
                x += n
            }
        }
        let ranked = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let palette = ranked.prefix(256).map(\.key)
        var map: [UInt32: UInt8] = [:]
        for (i, c) in palette.enumerated() { map[c] = UInt8(i) }
        for (c, _) in ranked.dropFirst(256) { map[c] = nearest(c, in: palette) }
        var indices = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = pixels.baseAddress!.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { indices[y * width + x] = map[row[x]]! }
        }
        return IndexedImage(palette: palette, indices: indices, quantized: true)
    }

    private static func nearest(_ c: UInt32, in palette: [UInt32]) -> UInt8 {
        var best = 0
        var bestDistance = Int.max
        for (i, p) in palette.enumerated() {
            var d = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                let a = Int(c >> UInt32(shift) & 0xff), b = Int(p >> UInt32(shift) & 0xff)
                d += (a - b) * (a - b)
            }
            if d < bestDistance { bestDistance = d; best = i }
        }
        return UInt8(best)
    }
}
