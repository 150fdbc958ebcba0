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
    /// gzip forms of public bodies by their ETag, made on the first request that takes gzip: a
    /// client that does not ask pays nothing. A quarter of the budget again, since a body
    /// compresses to a fifth or less (the halls' items: 22 KB to 4 KB).
    private let compressed: Mutex<ByteBoundedLRU<String, ByteBuffer>>

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
        state = Mutex(ByteBoundedLRU(capacityBytes: capacityBytes) { key, entry in entry.body.readableBytes + key.size })
        compressed = Mutex(ByteBoundedLRU(capacityBytes: capacityBytes / 4) { etag, body in etag.utf8.count + body.readableBytes })
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

    /// `body`, whose strong ETag is `etag`, gzip-compressed; made once and kept. zlib's level 6:
    /// the halls' items compress in about a millisecond, within 3 % of the best level's size.
    func gzip(_ body: ByteBuffer, etag: String) -> ByteBuffer? {
        if let kept = compressed.withLock({ $0.get(etag) }) { return kept }
        guard let bytes = body.withUnsafeReadableBytes({ Gzip.compress($0, level: 6) }) else { return nil }
        let made = ByteBuffer(bytes: bytes)
        if made.readableBytes <= capacityBytes / 16 { compressed.withLock { $0.insert(made, for: etag) } }
        return made
    }
}
