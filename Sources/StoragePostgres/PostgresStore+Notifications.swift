import DomainKernel
import Foundation
import Storage

extension PostgresStore: NotificationOutbox {
    public func claimNotifications(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxEvent] {
        let (at, until) = (Timestamp.format(now), Timestamp.format(now.addingTimeInterval(lease)))
        // SKIP LOCKED: processes claiming at once take different events instead of waiting.
        return try await pool.transaction("claim notifications") { db in
            let r = try db.query("""
                UPDATE outbox SET lease_until = $2 WHERE id IN (
                    SELECT id FROM outbox WHERE done_at IS NULL AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
                    ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
                RETURNING id, report_id, kind, status, at, attempts,
                    (SELECT coalesce(string_agg(endpoint, ' '), '') FROM outbox_deliveries d WHERE d.event_id = outbox.id)
                """, [.text(at), .text(until), .int(Int64(limit))])
            var events: [OutboxEvent] = []
            for i in 0..<r.count {
                guard let kind = ReportKind(rawValue: r.string(i, 2)), let status = ReportStatus(rawValue: r.string(i, 3)) else { continue }
                events.append(OutboxEvent(id: r.string(i, 0), reportID: r.string(i, 1), kind: kind, status: status, at: try Timestamp.parse(r.string(i, 4)),
                                          attempts: Int(r.int(i, 5)), deliveredTo: Set(r.string(i, 6).split(separator: " ").map(String.init))))
            }
            return events.sorted { $0.id < $1.id }
        }
    }

    public func recordDelivery(eventID: String, endpoint: String, at: Date) async throws {
        try await pool.run("record a delivery", retry: .never) { db in
            try db.query("INSERT INTO outbox_deliveries (event_id, endpoint, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                         [.text(eventID), .text(endpoint), .text(Timestamp.format(at))])
            return ()
        }
    }

    public func completeNotification(eventID: String, at: Date) async throws {
        try await pool.run("complete a notification") { db in
            try db.query("UPDATE outbox SET done_at = $2, lease_until = NULL WHERE id = $1", [.text(eventID), .text(Timestamp.format(at))])
            return ()
        }
    }

    public func retryNotification(eventID: String, nextAttempt: Date, error: String) async throws {
        try await pool.run("retry a notification", retry: .never) { db in
            try db.query("UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $2, last_error = $3, lease_until = NULL WHERE id = $1",
                         [.text(eventID), .text(Timestamp.format(nextAttempt)), .text(String(error.prefix(500)))])
            return ()
        }
    }

    public func completeAllNotifications(at: Date) async throws {
        try await pool.run("complete notifications") { db in
            try db.query("UPDATE outbox SET done_at = $1, lease_until = NULL WHERE done_at IS NULL", [.text(Timestamp.format(at))])
            return ()
        }
    }

    public func pruneNotifications(doneBefore: Date) async throws {
        try await pool.transaction("prune notifications") { db in
            let before = Timestamp.format(doneBefore)
            try db.query("DELETE FROM outbox_deliveries WHERE event_id IN (SELECT id FROM outbox WHERE done_at < $1)", [.text(before)])
            try db.query("DELETE FROM outbox WHERE done_at < $1", [.text(before)])
            return ()
        }
    }

    public func notificationBacklog() async throws -> Int {
        try await pool.run("count notifications") { db in Int(try db.query("SELECT count(*) FROM outbox WHERE done_at IS NULL").int(0, 0)) }
    }

    public func failingNotifications(limit: Int) async throws -> [FailingNotification] {
        try await pool.run("read failing notifications") { db in
            let r = try db.query(FailingNotification.query(limit: "$1"), [.int(Int64(limit))])
            return try (0..<r.count).compactMap { i in try FailingNotification(text: { r.string(i, $0) }, int: { r.int(i, $0) }) }
        }
    }
}
