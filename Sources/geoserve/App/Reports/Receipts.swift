import Crypto
import Foundation
import Storage

/// Receipt tokens of anonymous reports: HMAC-SHA256 of the report id under the installation's
/// secret. Derived rather than stored, so that an offline client that retries with the same
/// Idempotency-Key gets the same receipt again; only its SHA-256 is stored, for look-up.
struct Receipts: Sendable {
    let secret: SymmetricKey

    init(secretHex: String) {
        secret = SymmetricKey(data: Data(hex: secretHex))
    }

    func token(reportID: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(reportID.utf8), using: secret)
        return Data(mac).base64URLEncoded
    }
}

extension Data {
    /// Bytes from a hex string (pairs of hex digits; anything else is skipped).
    init(hex: String) {
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
