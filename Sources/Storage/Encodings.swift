import Foundation

extension Sequence where Element == UInt8 {
    /// Lower-case hex, two digits per byte (digests, secrets).
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(underestimatedCount * 2)
        for b in self {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Data {
    /// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5): tokens, cursors.
    public var base64URLEncoded: String {
        String(decoding: base64EncodedData().compactMap { c -> UInt8? in
            switch c {
            case UInt8(ascii: "+"): return UInt8(ascii: "-")
            case UInt8(ascii: "/"): return UInt8(ascii: "_")
            case UInt8(ascii: "="): return nil
            default: return c
            }
        }, as: UTF8.self)
    }

    /// Decodes URL-safe base64 with or without padding.
    public init?(base64URLEncoded s: String) {
        var b64 = String(s.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while b64.count % 4 != 0 { b64 += "=" }
        self.init(base64Encoded: b64)
    }
}
