import Crypto
import Foundation
import GeoCore
import Hummingbird
import Storage

/// Receipt tokens of anonymous reports: HMAC-SHA256 of the report id under the installation's
/// secret. Derived rather than stored, so that an offline client that retries with the same
/// Idempotency-Key gets the same receipt again, and nothing about it is written at intake: a
/// request presents the report id (in its path) and the token, and the token is recomputed.
struct Receipts: Sendable {
    /// The HMAC already keyed: copying it skips hashing the key for every token.
    private let keyed: HMAC<SHA256>

    init(secretHex: String) {
        keyed = HMAC<SHA256>(key: SymmetricKey(data: Data(hex: secretHex)))
    }

    func token(reportID: String) -> String {
        var mac = keyed
        mac.update(data: Data(reportID.utf8))
        return Data(mac.finalize()).base64URLEncoded
    }

    /// Whether the request carries the receipt of `report` (`X-Receipt-Token`), compared in
    /// constant time. Only reports not linked to an account have receipts.
    func isPresented(in request: Request, for report: ReportRecord) -> Bool {
        guard report.reporterID == nil, let presented = request.headers[.receiptToken] else { return false }
        return Credentials.constantTimeEqual(presented, token(reportID: report.id))
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
