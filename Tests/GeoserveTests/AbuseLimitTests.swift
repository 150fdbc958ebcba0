import DomainKernel
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import GeoserveApp

/// What one anonymous client or one report may take: attachments per report, the disk floor,
/// anonymous writes per address. Each would fill the disk if it broke.
@Suite("abuse limits")
struct AbuseLimitTests {
    let attachments = AttachmentTests()

    @Test("a COVID report takes no attachments, whoever uploads; nothing reaches the disk")
    func covidTakesNone() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["c"], kind: .covid)
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (status, body) = try await attachments.upload(client, token: admin, bytes: AttachmentTests.jpeg, report: "c")
            #expect(status == .unprocessableContent && errorCode(body) == "attachments_not_accepted")
        }
        #expect(try attachments.files(service).isEmpty)
    }

    @Test("the eleventh file, or one past the report's byte cap, is refused with 409 and leaves no file")
    func perReportCaps() async throws {
        var service = try await TestService(demo: false)
        defer { service.remove() }
        service.configuration.attachmentLimits = AttachmentLimits(count: 10, totalBytes: 10 * AttachmentTests.jpeg.count)
        try await service.seedReports(["r", "s"], kind: .misconduct)
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            for _ in 0..<10 {
                #expect(try await attachments.upload(client, token: admin, bytes: AttachmentTests.jpeg).0 == .created)
            }
            let (status, body) = try await attachments.upload(client, token: admin, bytes: AttachmentTests.jpeg)
            #expect(status == .conflict && errorCode(body) == "limit_reached")
            // Bytes: a file that would take report s past the cap, though s holds no file yet.
            let big = AttachmentTests.jpeg + [UInt8](repeating: 1, count: 10 * AttachmentTests.jpeg.count)
            let (s2, b2) = try await attachments.upload(client, token: admin, bytes: big, report: "s")
            #expect(s2 == .conflict && errorCode(b2) == "limit_reached")
            let (_, list) = try await client.json(.get, "/v1/reports/r/attachments", token: admin)
            #expect((list["attachments"] as? [[String: Any]])?.count == 10)
        }
        #expect(try attachments.files(service).count == 10)
    }

    @Test("the cap holds in the store's transaction, so racing uploads cannot pass it together")
    func capInTransaction() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["r"], kind: .misconduct)
        let store = try openStore(service.configuration.database)
        let limits = AttachmentLimits(count: 2, totalBytes: 1_000)
        func attachment(_ n: Int) -> Storage.Attachment {
            Storage.Attachment(id: "a\(n)", reportID: "r", contentType: "image/jpeg", size: 100, sha256: "00", file: "r/a\(n)", createdAt: Date())
        }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for n in 0..<6 {
                group.addTask { (try? await store.addAttachment(attachment(n), uploadedBy: "v", limits: limits)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 2)
        #expect(try await store.attachments(reportID: "r").count == 2)
        await #expect(throws: StorageError.limitReached("a report's attachments may hold at most 1000 bytes together")) {
            try await store.addAttachment(Storage.Attachment(id: "x", reportID: "r", contentType: "image/jpeg", size: 999, sha256: "00", file: "r/x",
                                                     createdAt: Date()), uploadedBy: "v", limits: AttachmentLimits(count: 10, totalBytes: 1_000))
        }
    }

    @Test("an upload that would leave the disk below the floor is refused with 507 and Retry-After before a byte is written")
    func diskFloor() async throws {
        var service = try await TestService(demo: false)
        defer { service.remove() }
        // A floor above any disk's free space: every upload meets a full disk.
        service.configuration.minFreeDiskBytes = 1 << 60
        try await service.seedReports(["r"], kind: .misconduct)
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (status, body, retry) = try await client.execute(uri: "/v1/reports/r/attachments", method: .post,
                                                                 headers: [.contentType: "image/jpeg", .authorization: "Bearer \(admin)"],
                                                                 body: ByteBuffer(bytes: AttachmentTests.jpeg)) { r in
                (r.status.code, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:], r.headers[.retryAfter])
            }
            #expect(status == 507 && errorCode(body) == "insufficient_storage" && retry == "60")
            let (_, list) = try await client.json(.get, "/v1/reports/r/attachments", token: admin)
            #expect((list["attachments"] as? [[String: Any]])?.isEmpty == true)
        }
        #expect(try attachments.files(service).isEmpty)
        #expect(DiskFloor.available(at: try service.configuration.attachmentsFolder) ?? 0 > 0)
    }

    @Test("anonymous reports past the per-address budget get 429 with Retry-After; accounts are not limited")
    func anonymousIntakeLimit() async throws {
        var service = try await TestService()
        defer { service.remove() }
        service.configuration.anonymousPerMinute = 3
        try await service.run { client in
            for _ in 0..<3 {
                #expect(try await client.submit(Drafts.misconduct()).0 == .created)
            }
            let (status, body, headers) = try await client.submit(Drafts.misconduct())
            #expect(status == .tooManyRequests && errorCode(body) == "rate_limited")
            #expect(Int(headers[.retryAfter] ?? "") ?? 0 >= 1)
            let admin = try await client.login(TestService.adminEmail)
            let reporter = try await client.account("reporter", admin: admin).token
            #expect(try await client.submit(Drafts.misconduct(anonymous: false), token: reporter).0 == .created)
        }
    }

    @Test("anonymous upload bytes past the per-address budget get 429")
    func anonymousUploadBytes() async throws {
        var service = try await TestService()
        defer { service.remove() }
        service.configuration.anonymousUploadBytesPerHour = 2 * AttachmentTests.jpeg.count
        try await service.run { client in
            let (_, first, _) = try await client.submit(Drafts.misconduct())
            let (id, receipt) = (first["id"] as? String ?? "", first["receipt"] as? String ?? "")
            func post() async throws -> (HTTPResponse.Status, [String: Any]) {
                try await client.execute(uri: "/v1/reports/\(id)/attachments", method: .post,
                                         headers: [.contentType: "image/jpeg", .receiptToken: receipt], body: ByteBuffer(bytes: AttachmentTests.jpeg)) { r in
                    (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:])
                }
            }
            #expect(try await post().0 == .created)
            #expect(try await post().0 == .created)
            let (status, body) = try await post()
            #expect(status == .tooManyRequests && errorCode(body) == "rate_limited")
        }
    }

    @Test("token buckets refill at the configured rate and forget idle clients before growing past their capacity")
    func buckets() {
        let limiter = RateLimiter(perMinute: 60, burst: 2, capacity: 4)
        #expect(limiter.take("a", now: 0) == nil && limiter.take("a", now: 0) == nil)
        #expect(limiter.take("a", now: 0) == 1)
        #expect(limiter.take("a", now: 1) == nil)
        #expect(limiter.take("b", now: 1) == nil, "another address has its own budget")
        for n in 0..<20 {
            _ = limiter.take("spoofed-\(n)", now: 100)
            #expect(limiter.tracked <= 4)
        }
        #expect(limiter.take("a", now: 100) == nil)
        limiter.charge("a", cost: 10, now: 100)
        #expect(limiter.take("a", now: 100) == 10, "1 token left, 10 charged: 10 s at one a second")
        #expect(RateLimiter(perMinute: 0).take("a") == nil, "0 disables the limit")
    }
}
