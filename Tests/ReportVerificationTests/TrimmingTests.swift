import Foundation
import Testing
@testable import ReportVerification

@Suite("trimming")
struct TrimmingTests {
    @Test("trimming removes exactly the white space that Foundation's trimming removes")
    func trimming() {
        let samples = ["", " ", "a", " a ", "\u{00A0}x\u{3000}", "\u{2028}\n\tb c\r\n", "\u{200B}zero width\u{200B}", "e\u{301} ", " \u{301}", "\u{85}q\u{85}"]
        var differing: [UInt32] = []
        for v in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            if isTrimmed(scalar) != CharacterSet.whitespacesAndNewlines.contains(scalar) { differing.append(v) }
        }
        #expect(differing.isEmpty)
        for s in samples {
            #expect(trimmingWhitespace(s) == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.unicodeScalars.map(\.value))")
        }
    }
}
