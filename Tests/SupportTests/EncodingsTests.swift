import Foundation
import Support
import Testing

@Suite("encodings")
struct EncodingsTests {
    @Test("URL-safe base64 matches Foundation's base64 with the alphabet swapped and padding dropped, and reads back")
    func base64URL() {
        var g = SystemRandomNumberGenerator()
        for length in 0..<70 {
            for _ in 0..<5 {
                let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &g) })
                let expected = data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                    .replacingOccurrences(of: "=", with: "")
                #expect(data.base64URLEncoded == expected)
                #expect(Data(base64URLEncoded: data.base64URLEncoded) == data)
                // A slice that does not start at index 0 encodes the same.
                let sliced = (Data([9]) + data).dropFirst()
                #expect(sliced.base64URLEncoded == expected)
            }
        }
        #expect(Data([0xFB, 0xFF]).base64URLEncoded == "-_8")
    }
}
