import CZlib
import Foundation

/// gzip (RFC 1952) of a whole body. The pages' own scripts, styles and HTML are compressed once,
/// at zlib's best level, when the process first sends them (a few milliseconds for all of them),
/// and the bytes kept: report.js goes from 24 KB to about 7 KB over a phone's connection. Public
/// answers are compressed once per ETag at a faster level (`CompressedBodies`).
enum Gzip {
    /// The gzip member of `input`; nil only if zlib cannot start (out of memory).
    static func compress(_ input: some ContiguousBytes, level: Int32 = Z_BEST_COMPRESSION) -> [UInt8]? {
        var stream = z_stream()
        // 15 + 16: a 32 KB window, with the gzip header and trailer instead of zlib's.
        guard czlib_deflate_init2(&stream, level, 15 + 16, 9, Z_DEFAULT_STRATEGY) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // deflateBound covers the zlib wrapper; the gzip header and trailer are 18 bytes, 6 more.
        let count = input.withUnsafeBytes { $0.count }
        let bound = Int(deflateBound(&stream, uLong(count))) + 16
        var out = [UInt8](repeating: 0, count: bound)
        let finished: Bool = input.withUnsafeBytes { src in
            out.withUnsafeMutableBufferPointer { dst in
                // zlib's next_in is not const, but deflate only reads it.
                stream.next_in = UnsafeMutablePointer(mutating: src.baseAddress?.assumingMemoryBound(to: UInt8.self))
                stream.avail_in = uInt(src.count)
                stream.next_out = dst.baseAddress
                stream.avail_out = uInt(bound)
                return deflate(&stream, Z_FINISH) == Z_STREAM_END
            }
        }
        guard finished else { return nil }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }
}
