import CZlib

/// zlib's deflate and CRC-32, as PNG needs them.
enum Deflate {
    /// Compresses `input` into one zlib stream (header, deflate data, Adler-32), as an IDAT
    /// sequence must hold.
    ///
    /// - Parameters:
    ///   - level: zlib level; tiles use a fast level because their runs compress well anyway.
    ///   - strategy: `Z_DEFAULT_STRATEGY`, `Z_FILTERED` or `Z_RLE`.
    static func compress(_ input: UnsafeRawBufferPointer, level: Int32, strategy: Int32) -> [UInt8] {
        var stream = z_stream()
        // czlib_deflate_init2 (deflateInit2) returns Z_OK or an error code; the stream owns
        // zlib's state until deflateEnd below, which runs on every path after a successful init.
        guard czlib_deflate_init2(&stream, level, 15, 8, strategy) == Z_OK else {
            fatalError("deflateInit2 failed (out of memory or bad parameters)")
        }
        defer { deflateEnd(&stream) }
        // deflateBound gives an output size that one Z_FINISH call always fits in.
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var out = [UInt8](repeating: 0, count: bound)
        let written: Int = out.withUnsafeMutableBufferPointer { dst in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            stream.next_out = dst.baseAddress
            stream.avail_out = uInt(bound)
            // deflate with Z_FINISH returns Z_STREAM_END when all input is compressed.
            let r = deflate(&stream, Z_FINISH)
            precondition(r == Z_STREAM_END, "deflate did not finish within deflateBound")
            return Int(stream.total_out)
        }
        out.removeSubrange(written...)
        return out
    }

    /// CRC-32 of a buffer continuing from `crc` (zlib's `crc32`, which only reads the buffer).
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        UInt32(CZlib.crc32(uLong(crc), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}
