import Support
import Synchronization

/// An in-memory least-recently-used cache of encoded tiles, bounded in bytes.
///
/// Tiles range from under a hundred bytes (empty) to tens of kilobytes, so an entry count says
/// little about memory; the bound is on the bytes held. Safe to share between threads: every
/// operation takes one lock for a few index updates.
public final class TileCache: Sendable {
    /// What the cache did and holds.
    public struct Statistics: Equatable, Sendable {
        /// Look-ups answered from the cache.
        public var hits = 0
        /// Look-ups not in the cache.
        public var misses = 0
        /// Tiles stored.
        public var insertions = 0
        /// Tiles dropped to stay within the byte bound.
        public var evictions = 0
        /// Tiles held now.
        public var entries = 0
        /// Bytes of tiles held now.
        public var bytes = 0
    }

    /// Byte bound on the tiles held (keys and bookkeeping are not counted).
    public var capacityBytes: Int { state.withLock { $0.capacityBytes } }
    private let state: Mutex<ByteBoundedLRU<TileCacheKey, [UInt8]>>

    /// Creates an empty cache holding at most `capacityBytes` of tiles.
    public init(capacityBytes: Int) {
        state = Mutex(ByteBoundedLRU(capacityBytes: capacityBytes) { _, tile in tile.count })
    }

    /// The tile for a key, marking it most recently used; nil on a miss.
    public func tile(for key: TileCacheKey) -> [UInt8]? {
        state.withLock { $0.get(key) }
    }

    /// Stores a tile, evicting least recently used tiles until it fits. A tile larger than the
    /// whole cache is not stored.
    public func insert(_ tile: [UInt8], for key: TileCacheKey) {
        state.withLock { $0.insert(tile, for: key) }
    }

    /// The tile for a key, made with `render` and stored on a miss. Two threads missing the same
    /// key at once may both render it; the tile is the same, the later store replaces the first.
    public func tile(for key: TileCacheKey, orRender render: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let hit = tile(for: key) { return hit }
        let fresh = try render()
        insert(fresh, for: key)
        return fresh
    }

    /// Keys from most to least recently used (for tests and diagnostics).
    public var keysByRecency: [TileCacheKey] { state.withLock { $0.keysByRecency } }

    /// Current counters.
    public var statistics: Statistics {
        state.withLock { s in
            Statistics(hits: s.hits, misses: s.misses, insertions: s.insertions, evictions: s.evictions, entries: s.count, bytes: s.bytes)
        }
    }

    /// Drops every tile (counters other than entries and bytes are kept).
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }
}
