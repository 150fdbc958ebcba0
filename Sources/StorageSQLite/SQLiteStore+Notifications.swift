import DomainKernel
import Foundation
import Storage

extension SQLiteStore: NotificationOutbox {
    public func claimNotifications(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxEvent] {
        let (at, until) = (Timestamp.format(now), Timestamp.format(now.addingTimeInterval(lease)))
        return try await run { db in
            try db.transaction {
                let s = try db.prepare("""
                    SELECT id, report_id, kind, status, at, attempts FROM outbox
                    WHERE done_at IS NULL AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?) ORDER BY id LIMIT ?
                    """).bind(.text(at), .text(at), .int(Int64(limit)))
                var rows: [(String, String, ReportKind, ReportStatus, Date, Int)] = []
                while try s.step() {
                    guard let kind = ReportKind(rawValue: s.text(2)!), let status = ReportStatus(rawValue: s.text(3)!) else { continue }
                    rows.append((s.text(0)!, s.text(1)!, kind, status, try Timestamp.parse(s.text(4)!), Int(s.int(5))))
                }
                let lease = try db.prepare("UPDATE outbox SET lease_until = ? WHERE id = ?")
                let delivered = try db.prepare("SELECT endpoint FROM outbox_deliveries WHERE event_id = ?")
                return try rows.map { row in
                    try lease.bind(.text(until), .text(row.0)).run()
                    let d = try delivered.bind(.text(row.0))
                    var to = Set<String>()
                    while try d.step() { to.insert(d.text(0)!) }
                    return OutboxEvent(id: row.0, reportID: row.1, kind: row.2, status: row.3, at: row.4, attempts: row.5, deliveredTo: to)
                }
            }
        }
    }

    public func recordDelivery(eventID: String, endpoint: String, at: Date) async throws {
        try await run { db in
            try db.prepare("INSERT INTO outbox_deliveries (event_id, endpoint, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
                .bind(.text(eventID), .text(endpoint), .text(Timestamp.format(at))).run()
        }
    }

    public func completeNotification(eventID: String, at: Date) async throws {
        try await run { db in
            try db.prepare("UPDATE outbox SET done_at = ?, lease_until = NULL WHERE id = ?").bind(.text(Timestamp.format(at)), .text(eventID)).run()
        }
    }

    public func retryNotification(eventID: String, nextAttempt: Date, error: String) async throws {
        try await run { db in
            try db.prepare("UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, lease_until = NULL WHERE id = ?")
                .bind(.text(Timestamp.format(nextAttempt)), .text(String(error.prefix(500))), .text(eventID)).run()
        }
    }

    public func completeAllNotifications(at: Date) async throws {
        try await run { db in
            try db.prepare("UPDATE outbox SET done_at = ?, lease_until = NULL WHERE done_at IS NULL").bind(.text(Timestamp.format(at))).run()
        }
    }

    public func pruneNotifications(doneBefore: Date) async throws {
        try await run { db in
            try db.transaction {
                let before = Timestamp.format(doneBefore)
                try db.prepare("DELETE FROM outbox_deliveries WHERE event_id IN (SELECT id FROM outbox WHERE done_at < ?)").bind(.text(before)).run()
                try db.prepare("DELETE FROM outbox WHERE done_at < ?").bind(.text(before)).run()
            }
        }
    }

    public func notificationBacklog() async throws -> Int {
        try await run { db in Int(try db.scalar("SELECT count(*) FROM outbox WHERE done_at IS NULL") ?? 0) }
    }

    public func failingNotifications(limit: Int) async throws -> [FailingNotification] {
        try await run { db in
            let s = try db.prepare(FailingNotification.query(limit: "?")).bind(.int(Int64(limit)))
            var out: [FailingNotification] = []
            while try s.step() {
                if let row = try FailingNotification(text: { s.text(Int32($0))! }, int: { s.int(Int32($0)) }) { out.append(row) }
            }
            return out
        }
    }
}
