import Foundation
import Synchronization

/// Token buckets per key (a client address): `perMinute` tokens a minute on average (requests,
/// or bytes when each take costs its size), up to `burst` at once. In memory and per process: several processes behind a load balancer each
/// allow the rate, which still bounds a flood to a known multiple.
final class RateLimiter: Sendable {
    let perMinute: Int
    let burst: Int
    /// Keys tracked at most; beyond it, full buckets (idle clients) are forgotten first, and if
    /// none is full the table starts over rather than grow without bound under a spoofing flood.
    let capacity: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    struct Bucket {
        var tokens: Double
        var updated: Double
    }

    /// A limiter that allows everything when `perMinute` is 0.
    init(perMinute: Int, burst: Int? = nil, capacity: Int = 100_000) {
        self.perMinute = perMinute
        self.burst = max(1, burst ?? perMinute)
        self.capacity = capacity
    }

    var isEnabled: Bool { perMinute > 0 }

    /// Keys in the table now.
    var tracked: Int { buckets.withLock { $0.count } }

    /// Takes `cost` tokens for `key`; nil when allowed, else the seconds until they are there.
    func take(_ key: String, cost: Double = 1, now: Double = ProcessInfo.processInfo.systemUptime) -> Int? {
        guard isEnabled else { return nil }
        let needed = min(Double(burst), max(cost, 1))
        return update(key, now: now) { bucket, rate in
            if bucket.tokens >= needed {
                bucket.tokens -= cost
                return nil
            }
            return Int(((needed - bucket.tokens) / rate).rounded(.up))
        }
    }

    /// Charges `cost` more (or refunds a negative cost) for work already done, e.g. the bytes an
    /// upload turned out to have beyond what it declared; the bucket may go below zero.
    func charge(_ key: String, cost: Double, now: Double = ProcessInfo.processInfo.systemUptime) {
        guard isEnabled else { return }
        _ = update(key, now: now) { bucket, _ in
            bucket.tokens = min(Double(burst), bucket.tokens - cost)
            return nil
        }
    }

    private func update(_ key: String, now: Double, _ body: (inout Bucket, Double) -> Int?) -> Int? {
        let rate = Double(perMinute) / 60
        return buckets.withLock { table in
            var bucket = table[key] ?? Bucket(tokens: Double(burst), updated: now)
            bucket.tokens = min(Double(burst), bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            let wait = body(&bucket, rate)
            if table[key] == nil, table.count >= capacity { Self.forgetIdle(&table, capacity: capacity, burst: Double(burst), rate: rate, now: now) }
            table[key] = bucket
            return wait
        }
    }

    private static func forgetIdle(_ table: inout [String: Bucket], capacity: Int, burst: Double, rate: Double, now: Double) {
        table = table.filter { $0.value.tokens + (now - $0.value.updated) * rate < burst }
        if table.count > capacity / 2 { table = [:] }
    }
}
