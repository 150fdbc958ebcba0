import Foundation
import Synchronization

/// Token buckets per key (a client address): `perMinute` tokens a minute on average (requests,
/// or bytes when each take costs its size), up to `burst` at once. In memory and per process: several processes behind a load balancer each
/// allow the rate, which still bounds a flood to a known multiple.
final class RateLimiter: Sendable {
    let perMinute: Int
    let burst: Int
    /// Keys tracked at most. Beyond it, full buckets (idle clients, whose budget is whole
    /// anyway) are forgotten; when none is, new keys share one overflow bucket rather than evict
    /// a key with a spent budget: forgetting that key would hand it a full budget again, so a
    /// flood from many addresses could refill every budget by filling the table.
    let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var buckets: [String: Bucket] = [:]
        /// When the table was last swept for full buckets: at most once a second, so that a full
        /// table of spent budgets does not cost a scan per request.
        var sweptAt = -Double.infinity
    }

    /// The key that keys beyond the capacity share.
    static let overflowKey = "\u{0}overflow"

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
    var tracked: Int { state.withLock { $0.buckets.count } }

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
        return state.withLock { state in
            var key = key
            if state.buckets[key] == nil, state.buckets.count >= capacity {
                if now - state.sweptAt >= 1 {
                    state.sweptAt = now
                    let burst = Double(burst)
                    state.buckets = state.buckets.filter { $0.value.tokens + (now - $0.value.updated) * rate < burst }
                }
                if state.buckets.count >= capacity { key = Self.overflowKey }
            }
            var bucket = state.buckets[key] ?? Bucket(tokens: Double(burst), updated: now)
            bucket.tokens = min(Double(burst), bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            let wait = body(&bucket, rate)
            state.buckets[key] = bucket
            return wait
        }
    }
}
