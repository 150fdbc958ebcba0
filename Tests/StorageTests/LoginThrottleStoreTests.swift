import Foundation
import Storage
import Testing

@Suite("login throttle store")
struct LoginThrottleStoreTests {
    let window: TimeInterval = 900

    @Test("failures count per key within a window, start over when it closes, and clear on success", arguments: StoreBackend.allCases)
    func counting(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        for i in 0..<3 { try await s.recordLoginEvent(keys: ["account:a", "address:x"], now: start.addingTimeInterval(Double(i)), window: window) }
        try await s.recordLoginEvent(keys: ["account:b", "address:x"], now: start.addingTimeInterval(5), window: window)
        let seen = try await s.loginEvents(keys: ["account:a", "account:b", "address:x", "account:c"], now: start.addingTimeInterval(10), window: window)
        #expect(seen["account:a"]?.count == 3 && seen["account:b"]?.count == 1 && seen["address:x"]?.count == 4 && seen["account:c"] == nil)
        #expect(seen["account:a"]?.windowStart == start)
        // The window closes 900 s after its first failure: nothing counts then, and the next failure opens a new one.
        let later = start.addingTimeInterval(window + 1)
        #expect(try await s.loginEvents(keys: ["account:a"], now: later, window: window).isEmpty)
        try await s.recordLoginEvent(keys: ["account:a"], now: later, window: window)
        #expect(try await s.loginEvents(keys: ["account:a"], now: later, window: window)["account:a"] == LoginEvents(count: 1, windowStart: later))
        try await s.clearLoginEvents(key: "account:a")
        #expect(try await s.loginEvents(keys: ["account:a"], now: later, window: window).isEmpty)
    }

    @Test("failures recorded at once through two stores on one database all count (two processes share one budget)", arguments: StoreBackend.allCases)
    func sharedAcrossStores(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let other = try t.reopen()
        let now = Date()
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<40 {
                let store = i % 2 == 0 ? t.store : other
                group.addTask { try? await store.recordLoginEvent(keys: ["account:shared"], now: now, window: window) }
            }
        }
        #expect(try await t.store.loginEvents(keys: ["account:shared"], now: now, window: window)["account:shared"]?.count == 40)
        #expect(try await other.loginEvents(keys: ["account:shared"], now: now, window: window)["account:shared"]?.count == 40)
    }
}
