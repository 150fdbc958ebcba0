import Crypto
import Foundation
import NIOCore
import Support

/// Idempotency keys as the store sees them: a keyed digest of the client's key, bound to a
/// digest of the request that carried it.
///
/// The store never holds a usable key (a copy of the database cannot replay anyone's request),
/// and a key is good for one request only: the same key with a different body is refused, so a
/// stranger who learns or guesses a key can neither collect that report's receipt nor make the
/// owner's own submission vanish as a "replay" (the IETF idempotency-key draft and payment APIs
/// answer such a mismatch with 422 as well).
struct IdempotencyKeys: Sendable, RedactedDescription {
    private let keyed: HMAC<SHA256>

    /// Shortest key: 32 characters carry 128 bits as hex and more as base64 or a UUID's text.
    static let lengths = 32...200
    /// Fewest distinct characters: refuses keys like "aaaa…" or "0000…01", which are not random.
    static let distinctCharacters = 8

    /// A key of its own, derived from the installation's secret, so that digests of keys never
    /// equal receipts.
    init(secretHex: String) {
        var derive = HMAC<SHA256>(key: SymmetricKey(data: Data(hex: secretHex)))
        derive.update(data: Data("geoserve idempotency keys".utf8))
        keyed = HMAC<SHA256>(key: SymmetricKey(data: Data(derive.finalize())))
    }

    /// The client's key when it is well formed, nil when absent; throws `422 invalid` naming
    /// the header otherwise.
    static func checked(_ raw: String?) throws -> String? {
        guard let raw else { return nil }
        let bytes = raw.utf8
        guard lengths.contains(bytes.count), !bytes.contains(where: { !(0x21...0x7E).contains($0) }), Set(bytes).count >= distinctCharacters else {
            throw APIError.invalid("Idempotency-Key must be 32 to 200 visible ASCII characters chosen at random (a UUID or 32 random hex digits)",
                                   field: "Idempotency-Key")
        }
        return raw
    }

    func digest(_ key: String) -> String {
        var mac = keyed
        mac.update(data: Data(key.utf8))
        return mac.finalize().hexString
    }

    static func requestDigest(_ body: ByteBuffer) -> String {
        SHA256.hash(data: Data(body.readableBytesView)).hexString
    }
}
