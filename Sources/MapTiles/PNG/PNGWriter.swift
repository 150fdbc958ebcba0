/// Assembles a PNG file: signature, then chunks each framed with its length and CRC.
struct PNGWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Colour types this encoder writes.
    enum ColorType: UInt8 {
        case indexed = 3
        case rgba = 6
    }

    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = Self.signature
        bytes.reserveCapacity(capacity + 64)
    }

    /// Appends a chunk; the CRC covers the type and the data.
    mutating func chunk(_ type: String, _ data: [UInt8]) {
        append32(UInt32(data.count))
        let start = bytes.count
        bytes.append(contentsOf: Array(type.utf8))
        bytes.append(contentsOf: data)
        let crc = bytes.withUnsafeBytes { Deflate.crc32(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        append32(crc)
    }

    /// Appends the IHDR chunk.
    mutating func header(width: Int, height: Int, bitDepth: UInt8, colorType: ColorType) {
        var d: [UInt8] = []
        for v in [UInt32(width), UInt32(height)] { d += [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        // Bit depth, colour type, deflate compression, adaptive filtering, no interlace.
        d += [bitDepth, colorType.rawValue, 0, 0, 0]
        chunk("IHDR", d)
    }

    /// Appends the IEND chunk; the file is complete.
    mutating func end() { chunk("IEND", []) }

    private mutating func append32(_ v: UInt32) {
        bytes += [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
    }
}
