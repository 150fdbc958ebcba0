import Foundation
import Storage

extension PostgresStore: LoginThrottleStore {
    public func loginEvents(keys: [String], now: Date, window: TimeInterval) async throws -> [String: LoginEvents] {
        let opened = Timestamp.format(now.addingTimeInterval(-window))
        return try await pool.run("read login events") { db in
            let r = try db.query("SELECT key, failures, window_start FROM login_failures WHERE key = ANY($1::text[]) AND window_start > $2",
                                 [.textArray(keys), .text(opened)])
            var out: [String: LoginEvents] = [:]
            for i in 0..<r.count { out[r.string(i, 0)] = LoginEvents(count: Int(r.int(i, 1)), windowStart: try Timestamp.parse(r.string(i, 2))) }
            return out
        }
    }

    public func recordLoginEvent(keys: [String], now: Date, window: TimeInterval) async throws {
        let (at, opened) = (Timestamp.format(now), Timestamp.format(now.addingTimeInterval(-window)))
        // One statement, outside the writer lock: login events are not part of the audit's order.
        // Row locks of the upsert keep concurrent events on one key from losing a count.
        try await pool.run("record a login event", retry: .never) { db in
            try db.query("""
                INSERT INTO login_failures (key, window_start, failures) SELECT k, $2, 1 FROM unnest($1::text[]) AS k
                ON CONFLICT (key) DO UPDATE SET
                    failures = CASE WHEN login_failures.window_start > $3 THEN login_failures.failures + 1 ELSE 1 END,
                    window_start = CASE WHEN login_failures.window_start > $3 THEN login_failures.window_start ELSE excluded.window_start END
                """, [.textArray(keys), .text(at), .text(opened)])
            return ()
        }
    }

    public func clearLoginEvents(key: String) async throws {
        try await pool.run("clear login events", retry: .never) { db in
            try db.query("DELETE FROM login_failures WHERE key = $1", [.text(key)])
            return ()
        }
    }
}
