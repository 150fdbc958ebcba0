import Crypto
import Foundation
import Support

/// The signature header of a notification: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
/// `"<t>.<body>"` with the shared secret. The timestamp inside the signed text lets a receiver
/// refuse replays older than a few minutes; the `v1` label leaves room for another scheme.
enum WebhookSignature {
    static let header = "X-Geoserve-Signature"

    static func sign(body: Data, secret: String, at: Date) -> String {
        let t = Int(at.timeIntervalSince1970)
        return "t=\(t),v1=" + mac(body: body, secret: secret, timestamp: t)
    }

    /// Whether a header signs `body` with `secret`, made within `tolerance` of `now`.
    static func verify(header: String, body: Data, secret: String, now: Date, tolerance: TimeInterval = 300) -> Bool {
        var t: Int?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { t = Int(pair[1]) } else if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let t, abs(now.timeIntervalSince1970 - Double(t)) <= tolerance else { return false }
        let expected = mac(body: body, secret: secret, timestamp: t)
        return signatures.contains { ConstantTime.equal($0, expected) }
    }

    private static func mac(body: Data, secret: String, timestamp: Int) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        hmac.update(data: Data("\(timestamp).".utf8))
        hmac.update(data: body)
        return Data(hmac.finalize()).hexString
    }
}
