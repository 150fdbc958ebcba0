import Foundation

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
        let ms = milliseconds & 0xFFFF_FFFF_FFFF
        let random = (generator.next() as UInt64, generator.next() as UInt64)
        // Written straight into the string's storage: every report and audit entry takes one,
        // and building it from an array of bytes, hex strings and a join cost about 2 % of the
        // service's CPU under intake.
        return String(unsafeUninitializedCapacity: 36) { out in
            let digits: StaticString = "0123456789abcdef"
            var at = 0
            func put(_ byte: UInt8) {
                if at == 8 || at == 13 || at == 18 || at == 23 {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                digits.withUTF8Buffer { hex in
                    out[at] = hex[Int(byte >> 4)]
                    out[at + 1] = hex[Int(byte & 0x0F)]
                }
                at += 2
            }
            for i in 0..<16 {
                var byte: UInt8
                if i < 6 {
                    byte = UInt8(truncatingIfNeeded: ms >> (8 * (5 - i)))
                } else {
                    byte = UInt8(truncatingIfNeeded: (i < 11 ? random.0 : random.1) >> (8 * (i % 8)))
                }
                if i == 6 { byte = 0x70 | (byte & 0x0F) }
                if i == 8 { byte = 0x80 | (byte & 0x3F) }
                put(byte)
            }
            return 36
        }
    }
}
