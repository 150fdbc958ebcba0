import Foundation
import Storage

extension SQLiteStore: LoginThrottleStore {
    public func loginEvents(keys: [String], now: Date, window: TimeInterval) async throws -> [String: LoginEvents] {
        let opened = Timestamp.format(now.addingTimeInterval(-window))
        return try await run { db in
            var out: [String: LoginEvents] = [:]
            let s = try db.cached("SELECT failures, window_start FROM login_failures WHERE key = ? AND window_start > ?")
            for key in keys {
                try s.bind(.text(key), .text(opened))
                if try s.step() { out[key] = LoginEvents(count: Int(s.int(0)), windowStart: try Timestamp.parse(s.text(1)!)) }
                try s.finish()
            }
            return out
        }
    }

    public func recordLoginEvent(keys: [String], now: Date, window: TimeInterval) async throws {
        let (at, opened) = (Timestamp.format(now), Timestamp.format(now.addingTimeInterval(-window)))
        try await run { db in
            try db.transaction {
                // A closed window starts over at this event; an open one counts on.
                let upsert = try db.cached("""
                    INSERT INTO login_failures (key, window_start, failures) VALUES (?, ?, 1)
                    ON CONFLICT (key) DO UPDATE SET
                        failures = CASE WHEN window_start > ? THEN failures + 1 ELSE 1 END,
                        window_start = CASE WHEN window_start > ? THEN window_start ELSE excluded.window_start END
                    """)
                for key in keys { try upsert.bind(.text(key), .text(at), .text(opened), .text(opened)).run() }
            }
        }
    }

    public func clearLoginEvents(key: String) async throws {
        try await run { db in try db.cached("DELETE FROM login_failures WHERE key = ?").bind(.text(key)).run() }
    }
}
