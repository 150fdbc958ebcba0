import Crypto
import Foundation

/// The key the audit chain is kept with, and from which sequence on it was.
///
/// Kept outside the database (in the installation's key file), so that someone with a copy of
/// the database, or write access to it, can change entries but cannot recompute the chain over
/// them: every keyed entry's hash is an HMAC under this key.
public struct AuditKey: Sendable {
    let key: SymmetricKey
    /// The first sequence number appended with the key: entries from here on must be keyed, so
    /// a chain rewritten without the key cannot pass as an old, unkeyed one.
    public let keyedFrom: Int

    public init(hex: String, keyedFrom: Int) {
        var bytes: [UInt8] = []
        var high: UInt8?
        for c in hex.utf8 {
            guard let v = Self.nibble(c) else { continue }
            if let h = high { bytes.append(h << 4 | v); high = nil } else { high = v }
        }
        key = SymmetricKey(data: bytes)
        self.keyedFrom = keyedFrom
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }

    /// An HMAC under the key over `parts`, each length-prefixed.
    func mac(_ parts: [String?]) -> String {
        var mac = HMAC<SHA256>(key: key)
        for part in parts {
            guard let part else {
                mac.update(data: [0])   // absent, distinct from ""
                continue
            }
            let bytes = Array(part.utf8)
            var length = UInt64(bytes.count).bigEndian
            mac.update(data: [1])
            withUnsafeBytes(of: &length) { mac.update(data: Array($0)) }
            mac.update(data: bytes)
        }
        return Data(mac.finalize()).map { String(format: "%02x", $0) }.joined()
    }
}
