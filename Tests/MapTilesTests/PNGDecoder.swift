import CZlib
import MapTiles

/// A minimal PNG reader for tests: checks the signature and every chunk's CRC, inflates the
/// IDAT stream with zlib's `uncompress`, undoes the row filters and expands palettes, giving
/// straight RGBA pixels. Only what `PNGEncoder` writes (8-bit RGBA; 1/2/4/8-bit indexed; no
/// interlace) is supported.
struct DecodedPNG {
    struct Chunk { let type: String; let data: [UInt8] }

    var width = 0, height = 0, bitDepth = 0, colorType = 0
    var chunks: [Chunk] = []
    /// Straight RGBA, 4 bytes per pixel.
    var rgba: [UInt8] = []

    enum Failure: Error { case signature, truncated, crc(String), header, inflate(Int32), filter(UInt8) }

    init(_ png: [UInt8]) throws {
        guard png.count >= 8, Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { throw Failure.signature }
        var i = 8
        func u32(_ at: Int) -> Int { Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3]) }
        while i < png.count {
            guard i + 12 <= png.count else { throw Failure.truncated }
            let n = u32(i)
            guard i + 12 + n <= png.count else { throw Failure.truncated }
            let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
            let crc = png[(i + 4)..<(i + 8 + n)].withUnsafeBytes {
                UInt32(CZlib.crc32(0, $0.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt($0.count)))
            }
            guard crc == UInt32(u32(i + 8 + n)) else { throw Failure.crc(type) }
            chunks.append(Chunk(type: type, data: Array(png[(i + 8)..<(i + 8 + n)])))
            i += 12 + n
        }
        guard let ihdr = chunks.first, ihdr.type == "IHDR", ihdr.data.count == 13, chunks.last?.type == "IEND" else { throw Failure.header }
        let h = ihdr.data
        width = Int(h[0]) << 24 | Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3])
        height = Int(h[4]) << 24 | Int(h[5]) << 16 | Int(h[6]) << 8 | Int(h[7])
        bitDepth = Int(h[8])
        colorType = Int(h[9])
        let bitsPerPixel = colorType == 6 ? 32 : bitDepth
        let bpp = max(bitsPerPixel / 8, 1)
        let rowBytes = (width * bitsPerPixel + 7) / 8
        let idat = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        var rawCount = uLongf(raw.count)
        // uncompress returns Z_OK when the whole stream fit into the buffer.
        let r = raw.withUnsafeMutableBufferPointer { dst in
            idat.withUnsafeBufferPointer { src in uncompress(dst.baseAddress, &rawCount, src.baseAddress, uLong(src.count)) }
        }
        guard r == Z_OK, Int(rawCount) == raw.count else { throw Failure.inflate(r) }

        var rows = [[UInt8]]()
        var previous = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<height {
            let o = y * (rowBytes + 1)
            let filter = raw[o]
            var row = Array(raw[(o + 1)...(o + rowBytes)])
            for k in 0..<rowBytes {
                let a = k >= bpp ? Int(row[k - bpp]) : 0, b = Int(previous[k]), c = k >= bpp ? Int(previous[k - bpp]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw Failure.filter(filter)
                }
                row[k] = row[k] &+ UInt8(predictor & 0xff)
            }
            rows.append(row)
            previous = row
        }

        let plte = chunks.first { $0.type == "PLTE" }?.data ?? []
        let trns = chunks.first { $0.type == "tRNS" }?.data ?? []
        rgba.reserveCapacity(width * height * 4)
        for row in rows {
            for x in 0..<width {
                if colorType == 6 {
                    rgba += row[(4 * x)..<(4 * x + 4)]
                } else {
                    let perByte = 8 / bitDepth
                    let byte = row[x / perByte]
                    let shift = 8 - bitDepth * (x % perByte + 1)
                    let index = Int(byte >> UInt8(shift)) & ((1 << bitDepth) - 1)
                    rgba += [plte[3 * index], plte[3 * index + 1], plte[3 * index + 2], index < trns.count ? trns[index] : 255]
                }
            }
        }
    }

    /// Pixel as premultiplied ARGB (`0xAARRGGBB`), rounding as cairo does, to compare with a surface.
    func premultiplied(x: Int, y: Int) -> UInt32 {
        let o = 4 * (y * width + x)
        let a = UInt32(rgba[o + 3])
        func p(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
        return a << 24 | p(rgba[o]) << 16 | p(rgba[o + 1]) << 8 | p(rgba[o + 2])
    }
}
