import DomainKernel
import Foundation
import ReportVerification
import Storage
import Testing

@Suite("verification store")
struct VerificationStoreTests {
    @Test("the queue lists pending first, oldest first, filters, and pages with a stable cursor", arguments: StoreBackend.allCases)
    func queue(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let t0 = Date(timeIntervalSince1970: 1_790_000_000)
        for i in 0..<25 {
            var r = record(String(format: "r%02d", i), kind: i % 5 == 0 ? .misconduct : .covid, at: t0.addingTimeInterval(Double(25 - i) * 60))
            r.occurredOn = i < 10 ? "2026-11-01" : "2026-11-15"
            if i % 3 == 0 { r.areas = [AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H02")] }
            _ = try await s.submit(ReportSubmission(record: r, idempotencyKey: nil))
        }
        _ = try await s.transition(reportID: "r24", .reject, reason: "spam", actor: "v", expectedVersion: nil)
        var seen: [String] = []
        var cursor: String?
        repeat {
            let page = try await s.queue(QueueFilter(), limit: 7, cursor: cursor)
            seen += page.reports.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil
        // Oldest first: r23 was submitted earliest among the pending ones (r24 is rejected).
        #expect(seen == (0..<24).reversed().map { String(format: "r%02d", $0) })
        let both = try await s.queue(QueueFilter(statuses: [.pending, .rejected]), limit: 100, cursor: nil)
        #expect(both.reports.last?.id == "r24" && both.nextCursor == nil)
        #expect(try await s.queue(QueueFilter(kind: .misconduct), limit: 100, cursor: nil).reports.map(\.id) == ["r20", "r15", "r10", "r05", "r00"])
        #expect(try await s.queue(QueueFilter(layer: "halls", areaID: "H02"), limit: 100, cursor: nil).reports.count == 8)
        #expect(try await s.queue(QueueFilter(from: "2026-11-10", to: "2026-11-30"), limit: 100, cursor: nil).reports.count == 14)
    }

    @Test("a claim keeps other verifiers out until it expires or is released", arguments: StoreBackend.allCases)
    func claims(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        _ = try await s.submit(ReportSubmission(record: record("r"), idempotencyKey: nil))
        let now = Date()
        let mine = try await s.claim(reportID: "r", holder: "alice", until: now.addingTimeInterval(600), now: now)
        await #expect(throws: ClaimError.heldByOther(mine)) {
            try await s.claim(reportID: "r", holder: "bob", until: now.addingTimeInterval(600), now: now)
        }
        #expect(try await s.claim(reportID: "r", now: now)?.holder == "alice")
        _ = try await s.claim(reportID: "r", holder: "bob", until: now.addingTimeInterval(1200), now: now.addingTimeInterval(601))
        #expect(try await s.claim(reportID: "r", now: now.addingTimeInterval(700))?.holder == "bob")
        try await s.release(reportID: "r", holder: "alice")
        #expect(try await s.claim(reportID: "r", now: now.addingTimeInterval(700))?.holder == "bob")
        try await s.release(reportID: "r", holder: "bob")
        #expect(try await s.claim(reportID: "r", now: now.addingTimeInterval(700)) == nil)
        await #expect(throws: ClaimError.notFound) { try await s.claim(reportID: "x", holder: "a", until: now, now: now) }
    }

    @Test("grants go to viewer accounts only, are audited, and can be withdrawn", arguments: StoreBackend.allCases)
    func grants(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let viewer = try await s.createAccount(email: "da@county.example", role: .viewer, passwordHash: "h")
        let verifier = try await s.createAccount(email: "v@campus.example", role: .verifier, passwordHash: "h")
        _ = try await s.submit(ReportSubmission(record: record("r"), idempotencyKey: nil))
        try await s.grant(reportID: "r", viewerID: viewer.id, by: "admin-1")
        #expect(try await s.isGranted(reportID: "r", viewerID: viewer.id))
        #expect(try await s.grantedReports(viewerID: viewer.id) == ["r"])
        await #expect(throws: StorageError.self) { try await s.grant(reportID: "r", viewerID: verifier.id, by: "admin-1") }
        await #expect(throws: StorageError.self) { try await s.grant(reportID: "nope", viewerID: viewer.id, by: "admin-1") }
        try await s.revokeGrant(reportID: "r", viewerID: viewer.id, by: "admin-1")
        #expect(try await !s.isGranted(reportID: "r", viewerID: viewer.id))
        #expect(try await s.history(reportID: "r").map(\.action) == ["submit", "grant:\(viewer.id)", "revoke-grant:\(viewer.id)"])
        #expect(try await s.verifyAuditChain() == nil)
    }
}
