import Foundation

extension Sequence where Element == UInt8 {
    /// Lower-case hex, two digits per byte (digests, secrets).
    public var hexString: String {
        // Digits computed, not looked up in an array made on each call: every audit entry's
        // hash passes through here on the writer's path.
        func digit(_ n: UInt8) -> UInt8 { n < 10 ? 48 + n : 87 + n }
        var out: [UInt8] = []
        out.reserveCapacity(Swift.max(underestimatedCount, 32) * 2)
        for b in self {
            out.append(digit(b >> 4))
            out.append(digit(b & 0x0F))
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Data {
    /// Bytes from a hex string (pairs of hex digits; anything else is skipped).
    public init(hex: String) {
        var bytes: [UInt8] = []
        var high: UInt8?
        for c in hex.utf8 {
            let v: UInt8
            switch c {
            case 48...57: v = c - 48
            case 97...102: v = c - 87
            case 65...70: v = c - 55
            default: continue
            }
            if let h = high { bytes.append(h << 4 | v); high = nil } else { high = v }
        }
        self.init(bytes)
    }
}

extension Data {
    /// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5): tokens, cursors.
    /// Written out directly: every anonymous report's receipt goes through it.
    public var base64URLEncoded: String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((count * 4 + 2) / 3)
        var i = startIndex
        while i < endIndex {
            let remaining = distance(from: i, to: endIndex)
            let b0 = UInt32(self[i])
            let b1 = remaining > 1 ? UInt32(self[index(i, offsetBy: 1)]) : 0
            let b2 = remaining > 2 ? UInt32(self[index(i, offsetBy: 2)]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            if remaining > 1 { out.append(alphabet[Int(group >> 6 & 63)]) }
            if remaining > 2 { out.append(alphabet[Int(group & 63)]) }
            i = index(i, offsetBy: Swift.min(3, remaining))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes URL-safe base64 with or without padding.
    public init?(base64URLEncoded s: String) {
        var b64 = String(s.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while b64.count % 4 != 0 { b64 += "=" }
        self.init(base64Encoded: b64)
    }
}
