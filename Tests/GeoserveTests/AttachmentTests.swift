import Crypto
import DomainKernel
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GeoserveApp

@Suite("attachments")
struct AttachmentTests {
    /// A structurally whole JPEG: SOI, a JFIF APP0 segment, a start of scan, 3,000 bytes of image
    /// data, EOI.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        + [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 0x3F, 0] + [UInt8](repeating: 7, count: 3000) + [0xFF, 0xD9]

    func upload(_ client: any TestClientProtocol, token: String?, bytes: [UInt8], type: String = "image/jpeg",
                report: String = "r") async throws -> (HTTPResponse.Status, [String: Any]) {
        var headers: HTTPFields = [.contentType: type]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/v1/reports/\(report)/attachments", method: .post, headers: headers, body: ByteBuffer(bytes: bytes)) { r in
            (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:])
        }
    }

    /// Files left in the attachments folder, temporary ones included.
    func files(_ service: TestService) throws -> [String] {
        let folder = try service.configuration.attachmentsFolder
        return (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { !$0.hasSuffix("/") && $0.contains("-") }
    }

    @Test("a verifier uploads a photo; the checksum and bytes come back; viewers need a grant")
    func roundTrip() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["r"], kind: .misconduct)
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let verifier = try await client.account("verifier", admin: admin).token
            let (status, body) = try await upload(client, token: verifier, bytes: Self.jpeg)
            #expect(status == .created)
            #expect(body["sha256"] as? String == SHA256.hash(data: Data(Self.jpeg)).map { String(format: "%02x", $0) }.joined())
            #expect(body["size"] as? Int == Self.jpeg.count && body["contentType"] as? String == "image/jpeg")
            let id = body["id"] as? String ?? ""
            let bytes = try await client.execute(uri: "/v1/attachments/\(id)", method: .get, headers: [.authorization: "Bearer \(verifier)"]) { r in
                #expect(r.headers[.contentType] == "image/jpeg")
                #expect(r.headers[.cacheControl] == "private, no-store")
                return [UInt8](r.body.readableBytesView)
            }
            #expect(bytes == Self.jpeg)
            let (viewerID, viewer) = try await client.account("viewer", admin: admin)
            #expect(try await client.json(.get, "/v1/attachments/\(id)", token: viewer).0 == .forbidden)
            #expect(try await client.json(.get, "/v1/reports/r/attachments", token: viewer).0 == .forbidden)
            _ = try await client.json(.post, "/v1/reports/r/grants", token: admin, body: #"{"viewerId":"\#(viewerID)"}"#)
            let (s2, list) = try await client.json(.get, "/v1/reports/r/attachments", token: viewer)
            #expect(s2 == .ok && (list["attachments"] as? [[String: Any]])?.count == 1)
            #expect(try await client.json(.get, "/v1/attachments/\(id)").0 == .unauthorized)
        }
    }

    @Test("content that is not an accepted format, or not what was declared, is refused and nothing stays on disk")
    func wrongContent() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["r"], kind: .misconduct)
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (s1, b1) = try await upload(client, token: admin, bytes: Array("#!/bin/sh\necho not a photo, not at all\n".utf8), type: "image/jpeg")
            #expect(s1 == .unsupportedMediaType && errorCode(b1) == "unsupported_type")
            let (s2, _) = try await upload(client, token: admin, bytes: Self.jpeg, type: "image/png")
            #expect(s2 == .unsupportedMediaType)
            let (s3, _) = try await upload(client, token: admin, bytes: [], type: "image/jpeg")
            #expect(s3 == .unprocessableContent)
            // PNG's signature, then 2 MiB of noise: named a PNG by its first bytes, not one.
            let noise = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + ContainerCheckTests.random(2 << 20)
            let (s4, b4) = try await upload(client, token: admin, bytes: noise, type: "image/png")
            #expect(s4 == .unsupportedMediaType && errorCode(b4) == "unsupported_type")
            let (_, list) = try await client.json(.get, "/v1/reports/r/attachments", token: admin)
            #expect((list["attachments"] as? [[String: Any]])?.isEmpty == true)
        }
        #expect(try files(service).isEmpty)
    }

    @Test("an upload over the limit is refused with 413 and leaves no file")
    func tooLarge() async throws {
        var service = try await TestService(demo: false)
        defer { service.remove() }
        service.configuration.maxAttachmentBytes = 1000
        try await service.seedReports(["r"], kind: .misconduct)
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (status, body) = try await upload(client, token: admin, bytes: Self.jpeg)
            #expect(status == .contentTooLarge && errorCode(body) == "too_large")
        }
        #expect(try files(service).isEmpty)
    }

    @Test("reporters cannot attach to others' reports; anonymous callers need the receipt")
    func uploaders() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["r"], kind: .misconduct)
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let reporter = try await client.account("reporter", admin: admin).token
            #expect(try await upload(client, token: reporter, bytes: Self.jpeg).0 == .forbidden)
            #expect(try await upload(client, token: nil, bytes: Self.jpeg).0 == .unauthorized)
            #expect(try await upload(client, token: admin, bytes: Self.jpeg, report: "nope").0 == .notFound)
        }
    }

    @Test("the holder of an anonymous report's receipt attaches to that report only, and only while it is pending")
    func receiptUploads() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            func post(_ report: String, receipt: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: "/v1/reports/\(report)/attachments", method: .post,
                                         headers: [.contentType: "image/jpeg", .receiptToken: receipt], body: ByteBuffer(bytes: Self.jpeg)) { $0.status }
            }
            let (_, first, _) = try await client.submit(Drafts.misconduct())
            let (_, second, _) = try await client.submit(Drafts.misconduct())
            let id = first["id"] as? String ?? "", receipt = first["receipt"] as? String ?? ""
            let otherID = second["id"] as? String ?? ""
            #expect(try await post(otherID, receipt: receipt) == .unauthorized)
            #expect(try await post(id, receipt: String(receipt.dropLast()) + (receipt.hasSuffix("A") ? "B" : "A")) == .unauthorized)
            #expect(try await post(id, receipt: receipt) == .created)
            let w = try await client.execute(uri: "/v1/reports/\(id)/withdraw", method: .post, headers: [.receiptToken: receipt]) { $0.status }
            #expect(w == .ok)
            #expect(try await post(id, receipt: receipt) == .unauthorized)
        }
    }

    @Test("formats are recognised by their first bytes")
    func sniffing() {
        #expect(MediaType.sniff(Array(Self.jpeg.prefix(16))) == .jpeg)
        #expect(MediaType.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0]) == .png)
        #expect(MediaType.sniff([0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0]) == .mp4)
        #expect(MediaType.sniff([0, 0, 0, 0x18] + Array("ftypqt  ".utf8) + [0, 0, 0, 0]) == .quicktime)
        #expect(MediaType.sniff([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0]) == .heic)
        #expect(MediaType.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(MediaType.sniff(Array("%PDF-1.7 hello...".utf8)) == nil)
    }
}
