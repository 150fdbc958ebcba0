import DomainKernel
import Foundation
import ReportVerification
import Storage
import Testing

@Suite("notification outbox")
struct NotificationOutboxTests {
    /// Three pending reports, a, b and c, in a fresh store.
    static func storeWithReports(_ backend: StoreBackend) async throws -> TestStore {
        let t = try await backend.make()
        for (i, id) in ["a", "b", "c"].enumerated() {
            _ = try await t.store.submit(ReportSubmission(record: record(id, kind: i == 2 ? .misconduct : .covid, at: Date(timeIntervalSince1970: 1_790_000_000 + Double(i))),
                                                          idempotencyKey: nil))
        }
        return t
    }

    @Test("every status change writes one event in its transaction; a refused change writes none", arguments: StoreBackend.allCases)
    func eventsWithTransitions(backend: StoreBackend) async throws {
        let t = try await Self.storeWithReports(backend)
        defer { t.remove() }
        let s = t.store
        #expect(try await s.notificationBacklog() == 0, "a submission is no status change")
        _ = try await s.transition(reportID: "a", .verify, reason: nil, actor: "v", expectedVersion: nil)
        _ = try await s.transition(reportID: "c", .reject, reason: "not enough detail", actor: "v", expectedVersion: nil)
        _ = try await s.transition(reportID: "a", .revoke, reason: "test was negative", actor: "v", expectedVersion: nil)
        await #expect(throws: ReportChangeError.self) { try await s.transition(reportID: "b", .revoke, reason: "x", actor: "v", expectedVersion: nil) }
        await #expect(throws: ReportChangeError.self) { try await s.transition(reportID: "b", .verify, reason: nil, actor: "v", expectedVersion: 7) }
        let events = try await s.claimNotifications(now: Date(), lease: 60, limit: 10)
        #expect(events.map { "\($0.reportID) \($0.kind.rawValue) \($0.status.rawValue)" } == ["a covid verified", "c misconduct rejected", "a covid revoked"])
        #expect(Set(events.map(\.id)).count == 3 && events.allSatisfy { $0.attempts == 0 && $0.deliveredTo.isEmpty })
    }

    @Test("a claim leases events: not handed out again until the lease ends; deliveries, retries and completion are kept", arguments: StoreBackend.allCases)
    func leases(backend: StoreBackend) async throws {
        let t = try await Self.storeWithReports(backend)
        defer { t.remove() }
        let s = t.store
        for id in ["a", "b"] { _ = try await s.transition(reportID: id, .verify, reason: nil, actor: "v", expectedVersion: nil) }
        let now = Date().addingTimeInterval(1)
        let first = try await s.claimNotifications(now: now, lease: 60, limit: 10)
        #expect(first.count == 2)
        #expect(try await s.claimNotifications(now: now.addingTimeInterval(30), lease: 60, limit: 10).isEmpty, "leased")
        // The first reached one endpoint of two and failed at the other: it comes back after its wait, knowing where it arrived.
        try await s.recordDelivery(eventID: first[0].id, endpoint: "e1", at: now)
        try await s.retryNotification(eventID: first[0].id, nextAttempt: now.addingTimeInterval(100), error: "e2: answered 500")
        try await s.completeNotification(eventID: first[1].id, at: now)
        #expect(try await s.notificationBacklog() == 1)
        #expect(try await s.claimNotifications(now: now.addingTimeInterval(50), lease: 60, limit: 10).isEmpty, "waiting for its retry")
        let again = try await s.claimNotifications(now: now.addingTimeInterval(101), lease: 60, limit: 10)
        #expect(again.map(\.id) == [first[0].id] && again.first?.attempts == 1 && again.first?.deliveredTo == ["e1"])
        // A lease that ran out (a process died mid-delivery) hands the event out again.
        #expect(try await s.claimNotifications(now: now.addingTimeInterval(162), lease: 60, limit: 10).map(\.id) == [first[0].id])
        try await s.completeNotification(eventID: first[0].id, at: now.addingTimeInterval(170))
        #expect(try await s.notificationBacklog() == 0)
        try await s.pruneNotifications(doneBefore: now.addingTimeInterval(100))
        try await s.pruneNotifications(doneBefore: now.addingTimeInterval(200))
        #expect(try await s.claimNotifications(now: now.addingTimeInterval(10_000), lease: 60, limit: 10).isEmpty)
    }

    @Test("two stores claiming at once never get the same event", arguments: StoreBackend.allCases)
    func disjointClaims(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        for i in 0..<40 {
            let id = String(format: "r%02d", i)
            _ = try await t.store.submit(ReportSubmission(record: record(id, at: Date(timeIntervalSince1970: 1_790_000_000 + Double(i))), idempotencyKey: nil))
            _ = try await t.store.transition(reportID: id, .verify, reason: nil, actor: "v", expectedVersion: nil)
        }
        let other = try t.reopen()
        let now = Date().addingTimeInterval(1)
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for store in [t.store, other, t.store, other] {
                group.addTask { try await store.claimNotifications(now: now, lease: 60, limit: 15).map(\.id) }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 40 && Set(claimed).count == 40)
    }

    @Test("with nowhere to send them, events are marked done and leave the backlog", arguments: StoreBackend.allCases)
    func completeAll(backend: StoreBackend) async throws {
        let t = try await Self.storeWithReports(backend)
        defer { t.remove() }
        _ = try await t.store.transition(reportID: "a", .verify, reason: nil, actor: "v", expectedVersion: nil)
        try await t.store.completeAllNotifications(at: Date())
        #expect(try await t.store.notificationBacklog() == 0)
    }
}
