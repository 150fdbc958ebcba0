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

    @Test("token buckets refill at the configured rate and forget idle clients before growing past their capacity; past it, new keys share one bucket")
    func buckets() {
        let limiter = RateLimiter(perMinute: 60, burst: 2, capacity: 4)
        #expect(limiter.take("a", now: 0) == nil && limiter.take("a", now: 0) == nil)
        #expect(limiter.take("a", now: 0) == 1)
        #expect(limiter.take("a", now: 1) == nil)
        #expect(limiter.take("b", now: 1) == nil, "another address has its own budget")
        for n in 0..<20 {
            _ = limiter.take("spoofed-\(n)", now: 100)
            #expect(limiter.tracked <= 5, "four keys and the shared overflow bucket")
        }
        // Forgotten while whole, "a" comes back during the flood: it shares the spent overflow bucket.
        #expect(limiter.take("a", now: 100) != nil)
        // The flood over, every bucket is whole again and forgotten: "a" has a budget of its own.
        #expect(limiter.take("a", now: 200) == nil)
        limiter.charge("a", cost: 10, now: 200)
        #expect(limiter.take("a", now: 200) == 10, "1 token left, 10 charged: 10 s at one a second")
        #expect(RateLimiter(perMinute: 0).take("a") == nil, "0 disables the limit")
    }

    @Test("a flood of new addresses never refills a spent budget: past the capacity they share one bucket, and a spent key is never forgotten")
    func evictionNeverRefills() {
        let limiter = RateLimiter(perMinute: 1, burst: 2, capacity: 4)
        for key in ["a", "b", "c", "d"] {
            #expect(limiter.take(key, now: 0) == nil && limiter.take(key, now: 0) == nil)
            #expect(limiter.take(key, now: 0) != nil, "\(key) spent its budget")
        }
        // Ten thousand new addresses: the first two take the shared bucket's budget, the rest wait.
        var admitted = 0
        for n in 0..<10_000 where limiter.take("flood-\(n)", now: Double(n) / 10_000) == nil { admitted += 1 }
        #expect(admitted == 2)
        #expect(limiter.tracked == 5)
        for key in ["a", "b", "c", "d"] { #expect(limiter.take(key, now: 1) != nil, "\(key) is still spent") }
        // Idle long enough to be whole again, the keys are forgotten and new ones get budgets of their own.
        #expect(limiter.take("late", now: 1_000) == nil && limiter.take("late", now: 1_000) == nil)
    }

    @Test("an IPv6 client's budget is its /64 (or the configured prefix); an IPv4-mapped address is its IPv4 address")
    func ipv6Prefix() {
        let key = { (address: String) in AddressBudgetKey.of(address, ipv6Prefix: 64) }
        #expect(key("2001:db8:1:2::1") == key("2001:db8:1:2:ffff:ffff:ffff:9"))
        #expect(key("2001:db8:1:2::1") != key("2001:db8:1:3::1"))
        #expect(key("2001:db8:1:2::1") == "20010db8000100020000000000000000/64")
        #expect(AddressBudgetKey.of("2001:db8:1:2::1", ipv6Prefix: 48) == AddressBudgetKey.of("2001:db8:1:ff::1", ipv6Prefix: 48))
        #expect(AddressBudgetKey.of("2001:db8:1:2::1", ipv6Prefix: 128) != AddressBudgetKey.of("2001:db8:1:2::2", ipv6Prefix: 128))
        #expect(key("::ffff:192.0.2.7") == "192.0.2.7" && key("192.0.2.7") == "192.0.2.7")
        #expect(key("fe80::1%eth0") == key("fe80::2"))
        #expect(key("unknown") == "unknown")
    }

    @Test("past the bound on pending anonymous reports, anonymous intake answers 503 queue_full with Retry-After; accounts still file; once verifiers work the queue down, it takes reports again")
    func pendingAnonymousBound() async throws {
        var service = try await TestService()
        defer { service.remove() }
        let db = service.configuration.database
        let pending = Int(try rawColumn("SELECT count(*) FROM reports WHERE status = 'pending' AND reporter_id IS NULL", on: db).first ?? "") ?? -1
        service.configuration.maxPendingAnonymous = pending + 2
        service.configuration.anonymousPerMinute = 0
        try await service.run { client in
            var ids: [String] = []
            for _ in 0..<2 {
                let (status, body, _) = try await client.submit(Drafts.misconduct())
                #expect(status == .created)
                ids.append(body["id"] as? String ?? "")
            }
            let (status, body, headers) = try await client.submit(Drafts.misconduct())
            #expect(status == .serviceUnavailable && errorCode(body) == "queue_full")
            #expect(headers[.retryAfter] == "60")
            // Junk that does not validate is refused as such, not counted against the queue.
            #expect(try await client.submit(#"{"kind":"misconduct"}"#).0 == .unprocessableContent)
            let admin = try await client.login(TestService.adminEmail)
            let reporter = try await client.account("reporter", admin: admin).token
            #expect(try await client.submit(Drafts.misconduct(anonymous: false), token: reporter).0 == .created)
            #expect(try await client.json(.post, "/v1/reports/\(ids[0])/transitions", token: admin, body: #"{"transition":"reject","reason":"junk"}"#).0 == .ok)
            #expect(try await eventually(within: 10) { try await client.submit(Drafts.misconduct()).0 == .created })
            let metrics = String(decoding: try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(admin)"]) { Data($0.body.readableBytesView) }, as: UTF8.self)
            #expect(metrics.contains(#"geoserve_rate_limited_total{limit="pending_anonymous"}"#))
        }
    }
}
