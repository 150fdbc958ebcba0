import Support
import Testing

@Suite("constant-time comparison")
struct ConstantTimeTests {
    @Test("equal strings compare equal; a difference anywhere, or in length, does not")
    func equality() {
        let secret = "c2VjcmV0LXRva2VuLWZvci10ZXN0cw"
        #expect(ConstantTime.equal(secret, secret))
        #expect(ConstantTime.equal("", ""))
        var bytes = Array(secret.utf8)
        for i in bytes.indices {
            let kept = bytes[i]
            bytes[i] ^= 1
            #expect(!ConstantTime.equal(secret, String(decoding: bytes, as: UTF8.self)), "a change at byte \(i) passed")
            bytes[i] = kept
        }
        #expect(!ConstantTime.equal(secret, String(secret.dropLast())))
        #expect(!ConstantTime.equal(secret, secret + "A"))
        // Multi-byte characters compare by their bytes.
        #expect(ConstantTime.equal("é", "é"))
        #expect(!ConstantTime.equal("é", "e\u{301}"))
    }
}
