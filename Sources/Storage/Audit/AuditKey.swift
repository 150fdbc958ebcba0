import Crypto
import Foundation
import Support

/// The key the audit chain is kept with, and from which sequence on it was.
///
/// Kept outside the database (in the installation's key file), so that someone with a copy of
/// the database, or write access to it, can change entries but cannot recompute the chain over
/// them: every keyed entry's hash is an HMAC under this key.
public struct AuditKey: Sendable {
    /// The HMAC already keyed: copying it skips hashing the key's pads for every entry.
    private let keyed: HMAC<SHA256>
    /// The first sequence number appended with the key: entries from here on must be keyed, so
    /// a chain rewritten without the key cannot pass as an old, unkeyed one.
    public let keyedFrom: Int

    public init(hex: String, keyedFrom: Int) {
        keyed = HMAC<SHA256>(key: SymmetricKey(data: Data(hex: hex)))
        self.keyedFrom = keyedFrom
    }

    /// An HMAC under the key over `parts`, each length-prefixed: a flag (absent or present, so
    /// absent differs from ""), 8 bytes of length, the bytes. Encoded into one buffer and hashed
    /// in one update, as this runs for every audit entry on the writer's thread.
    func mac(_ parts: [String?]) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(parts.reduce(0) { $0 + 9 + ($1?.utf8.count ?? 0) })
        for part in parts {
            guard let part else {
                encoded.append(0)
                continue
            }
            encoded.append(1)
            let count = UInt64(part.utf8.count)
            for shift in stride(from: 56, through: 0, by: -8) { encoded.append(UInt8(truncatingIfNeeded: count >> UInt64(shift))) }
            encoded.append(contentsOf: part.utf8)
        }
        var mac = keyed
        mac.update(data: encoded)
        return mac.finalize().hexString
    }
}
