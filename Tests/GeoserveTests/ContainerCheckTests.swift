import Foundation
import Testing
@testable import GeoserveApp

/// The structure check behind attachment uploads: real files pass, a format's first bytes
/// before anything else do not.
@Suite("attachment structure")
struct ContainerCheckTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/media/\(name)")))
    }

    /// The verdict when `bytes` arrive in pieces of `piece` bytes, as an upload would.
    static func verdict(_ bytes: [UInt8], piece: Int = 7) -> String? {
        guard let type = MediaType.sniff(Array(bytes.prefix(MediaType.sniffLength))) else { return "not recognised" }
        var check = ContainerCheck(type)
        var i = 0
        while i < bytes.count {
            check.feed(bytes[i..<min(bytes.count, i + piece)])
            i += piece
        }
        return check.verdict(total: bytes.count)
    }

    static func random(_ count: Int) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        var out: [UInt8] = []
        out.reserveCapacity(count + 8)
        while out.count < count { withUnsafeBytes(of: g.next() as UInt64) { out += $0 } }
        return Array(out.prefix(count))
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + payload
    }

    static var mp4: [UInt8] { box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isomiso2mp41".utf8)) + box("mdat", random(5_000)) + box("moov", [1, 2, 3]) }

    static var webm: [UInt8] {
        // EBML header (id 1A45DFA3, size 4 in one byte), then a Segment of unknown size.
        [0x1A, 0x45, 0xDF, 0xA3, 0x84, 0x42, 0x86, 0x81, 0x01] + [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + random(3_000)
    }

    @Test("real and well-built files of every format pass, in any piece size")
    func wellFormed() throws {
        for name in ["photo.jpg", "photo-progressive.jpg", "photo.png", "photo.webp"] {
            let bytes = try Self.fixture(name)
            for piece in [1, 7, 4096] {
                #expect(Self.verdict(bytes, piece: piece) == nil, "\(name) in pieces of \(piece)")
            }
        }
        #expect(Self.verdict(Self.mp4) == nil)
        #expect(Self.verdict(Self.webm) == nil)
        #expect(Self.verdict(AttachmentTests.jpeg) == nil)
        // A trailer after the end of a JPEG image, as some phones write, is kept.
        #expect(Self.verdict(try Self.fixture("photo.jpg") + Array("trailer".utf8)) == nil)
    }

    @Test("a format's first bytes followed by random bytes are refused, whatever the format")
    func signatureThenNoise() throws {
        let heads: [(String, [UInt8])] = [
            ("png", Self.pngSignature),
            ("jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8)),
            ("mp4", [0, 0, 0, 0x18] + Array("ftypmp42".utf8)),
            ("webp", Array("RIFF".utf8) + [0x00, 0x00, 0x20, 0x00] + Array("WEBPVP8 ".utf8)),
            ("webm", [0x1A, 0x45, 0xDF, 0xA3]),
        ]
        for (name, head) in heads {
            for _ in 0..<5 {
                #expect(Self.verdict(head + Self.random(2 << 20), piece: 65_536) != nil, "\(name) + 2 MiB of noise")
            }
        }
    }

    @Test("files cut short, or with bytes after their end, are refused")
    func truncatedOrPadded() throws {
        let png = try Self.fixture("photo.png"), jpeg = try Self.fixture("photo.jpg"), webp = try Self.fixture("photo.webp")
        #expect(Self.verdict(Array(png.dropLast(5))) != nil)
        #expect(Self.verdict(png + [0, 0, 0, 0]) != nil, "bytes after IEND")
        #expect(Self.verdict(Array(jpeg.dropLast(2))) == "no end-of-image marker")
        #expect(Self.verdict(Array(webp.dropLast(1))) != nil)
        #expect(Self.verdict(webp + [0, 0]) != nil, "a RIFF size that does not match the file")
        #expect(Self.verdict(Array(Self.mp4.dropLast(1))) == "the file is cut short")
        // A PNG whose first chunk is not IHDR.
        var noHeader = png
        noHeader.replaceSubrange(12..<16, with: Array("IDAT".utf8))
        #expect(Self.verdict(noHeader) == "no IHDR chunk first")
    }
}
