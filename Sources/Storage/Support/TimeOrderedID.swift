import Foundation
import GeoCore

/// Row identifiers in the UUID version 7 layout of RFC 9562: 48 bits of Unix time in
/// milliseconds, then the version, 74 random bits and the variant, written as a lowercase UUID.
///
/// Ids made later sort later, so a new row lands at the right-hand end of every index keyed by
/// its id rather than on a random page: a group commit then rewrites a few index pages instead of
/// one per row, and that stays so as the store grows. The id reveals when the row was made, to the
/// millisecond; report ids are only shown to the report's reporter and to staff, who see the
/// submission time anyway, and never in public output.
public enum TimeOrderedID {
    /// A new id for the present moment.
    public static func make(now: Date = Date()) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(milliseconds: UInt64(max(0, now.timeIntervalSince1970 * 1000)), using: &generator)
    }

    /// An id for a given time with random bits from `generator` (deterministic under test).
    public static func make<G: RandomNumberGenerator>(milliseconds: UInt64, using generator: inout G) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        let ms = milliseconds & 0xFFFF_FFFF_FFFF
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: ms >> (8 * (5 - i))) }
        let random = (generator.next() as UInt64, generator.next() as UInt64)
        for i in 6..<16 {
            let word = i < 11 ? random.0 : random.1
            bytes[i] = UInt8(truncatingIfNeeded: word >> (8 * (i % 8)))
        }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        let hex = Array(bytes.hexString)
        return [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]].map { String($0) }.joined(separator: "-")
    }
}
