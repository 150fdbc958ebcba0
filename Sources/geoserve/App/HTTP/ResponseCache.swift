import Hummingbird
import Synchronization

/// Encoded response bodies by cache key, least recently used evicted first, bounded in bytes.
///
/// Keys carry the data version, so an entry is never stale: a change of public numbers makes
/// new keys and the old entries age out.
final class ResponseCache: Sendable {
    struct Entry: Sendable {
        let body: ByteBuffer
        let contentType: String
        let etag: String
        var cacheControl = Conditional.publicCaching
    }

    private struct State {
        var entries: [String: (entry: Entry, tick: UInt64)] = [:]
        var bytes = 0
        var tick: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    let capacityBytes: Int
    private let state = Mutex(State())

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    func get(_ key: String) -> Entry? {
        state.withLock { s in
            s.tick += 1
            guard var found = s.entries[key] else { s.misses += 1; return nil }
            s.hits += 1
            found.tick = s.tick
            s.entries[key] = found
            return found.entry
        }
    }

    func put(_ key: String, _ entry: Entry) {
        let size = entry.body.readableBytes + key.utf8.count
        guard size <= capacityBytes / 4 else { return }
        state.withLock { s in
            s.tick += 1
            if let old = s.entries[key] { s.bytes -= old.entry.body.readableBytes + key.utf8.count }
            s.entries[key] = (entry, s.tick)
            s.bytes += size
            if s.bytes > capacityBytes {
                // Evict the oldest half of the overflow in one pass: sorting once per eviction
                // round is cheaper than keeping an ordered list on every hit.
                let byAge = s.entries.sorted { $0.value.tick < $1.value.tick }
                for (k, v) in byAge where s.bytes > capacityBytes * 3 / 4 {
                    s.entries[k] = nil
                    s.bytes -= v.entry.body.readableBytes + k.utf8.count
                }
            }
        }
    }

    /// Hits, misses, bytes held and entries, for `/metrics`.
    var statistics: (hits: Int, misses: Int, bytes: Int, entries: Int) {
        state.withLock { ($0.hits, $0.misses, $0.bytes, $0.entries.count) }
    }
}
