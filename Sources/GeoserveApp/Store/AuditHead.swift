import Crypto
import Foundation
import Support

/// The audit trail's newest entry at some moment, signed with the installation's audit key:
/// `sequence hash signature` on one line. Kept away from the database, it pins everything up to
/// it: entries deleted from the end, or a chain rewritten before it, no longer hold this hash.
package struct AuditHead {
    package let sequence: Int
    package let hash: String
    let signature: String

    package init(sequence: Int, hash: String, keys: InstallationKeys) {
        self.sequence = sequence
        self.hash = hash
        signature = Self.sign(sequence: sequence, hash: hash, keys: keys)
    }

    package init(text: String) throws {
        let parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard parts.count == 3, let sequence = Int(parts[0]) else { throw InstallationKeys.Problem(description: "expected: sequence hash signature") }
        self.sequence = sequence
        hash = parts[1]
        signature = parts[2]
    }

    package var text: String { "\(sequence) \(hash) \(signature)\n" }

    package func isSigned(by keys: InstallationKeys) -> Bool {
        ConstantTime.equal(signature, Self.sign(sequence: sequence, hash: hash, keys: keys))
    }

    private static func sign(sequence: Int, hash: String, keys: InstallationKeys) -> String {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: Data(hex: keys.audit)))
        mac.update(data: Data("geoserve audit head \(sequence) \(hash)".utf8))
        return mac.finalize().hexString
    }
}
