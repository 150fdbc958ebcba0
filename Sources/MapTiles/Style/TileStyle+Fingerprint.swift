import Foundation

extension TileStyle {
    /// A stable 16-hex-digit fingerprint of the style for cache keys and ETags.
    ///
    /// `hashValue` is seeded per process, so replicas would disagree; this is FNV-1a 64 over the
    /// style's sorted-key JSON, the same on every machine and every run.
    public var fingerprint: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain values and enums cannot fail; an empty body would still be stable.
        let bytes = (try? encoder.encode(self)) ?? Data()
        var h: UInt64 = 0xcbf29ce484222325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
