import Hummingbird
import Support
import Synchronization

/// Encoded response bodies by `VersionedKey`, least recently used evicted first, bounded in bytes.
///
/// Keys carry the layer and data versions, so an entry is never stale: a change of public numbers
/// makes new keys and the old entries age out.
final class ResponseCache: Sendable {
    struct Entry: Sendable {
        let body: ByteBuffer
        let contentType: String
        let etag: String
        var cacheControl = Conditional.publicCaching
    }

    let capacityBytes: Int
    private let state: Mutex<ByteBoundedLRU<VersionedKey, Entry>>

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
        state = Mutex(ByteBoundedLRU(capacityBytes: capacityBytes) { key, entry in entry.body.readableBytes + key.size })
    }

    /// Look-ups answered, look-ups missed, and bytes held, for the metrics.
    var statistics: (hits: Int, misses: Int, bytes: Int) {
        state.withLock { ($0.hits, $0.misses, $0.bytes) }
    }

    func get(_ key: VersionedKey) -> Entry? {
        state.withLock { $0.get(key) }
    }

    /// Stores a body; one larger than a quarter of the cache is not kept, so that a few large
    /// answers cannot push out everything else.
    func put(_ key: VersionedKey, _ entry: Entry) {
        guard entry.body.readableBytes + key.size <= capacityBytes / 4 else { return }
        state.withLock { $0.insert(entry, for: key) }
    }
}
