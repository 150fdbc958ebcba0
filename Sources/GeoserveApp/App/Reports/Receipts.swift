import Crypto
import Foundation
import Hummingbird
import Storage
import Support

/// Receipt tokens of anonymous reports: HMAC-SHA256 of the report id under the installation's
/// secret. Derived rather than stored, so that an offline client that retries with the same
/// Idempotency-Key gets the same receipt again, and nothing about it is written at intake: a
/// request presents the report id (in its path) and the token, and the token is recomputed.
struct Receipts: Sendable, RedactedDescription {
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
        return ConstantTime.equal(presented, token(reportID: report.id))
    }
}
