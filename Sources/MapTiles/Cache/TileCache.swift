import Synchronization

/// An in-memory least-recently-used cache of encoded tiles, bounded in bytes.
///
/// Tiles range from under a hundred bytes (empty) to tens of kilobytes, so an entry count says
/// little about memory; the bound is on the bytes held. Safe to share between threads: every
/// operation takes one lock for a few pointer updates.
public final class TileCache: Sendable {
    /// Counters for `/metrics`.
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
    public let capacityBytes: Int
    private let state: Mutex<LRUList>

    /// Creates an empty cache holding at most `capacityBytes` of tiles.
    public init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
        self.state = Mutex(LRUList())
    }

    /// The tile for a key, marking it most recently used; nil on a miss.
    public func tile(for key: TileCacheKey) -> [UInt8]? {
        state.withLock { s in
            guard let i = s.slots[key] else { s.statistics.misses += 1; return nil }
            s.statistics.hits += 1
            s.moveToFront(i)
            return s.nodes[i].value
        }
    }

    /// Stores a tile, evicting least recently used tiles until it fits. A tile larger than the
    /// whole cache is not stored.
    public func insert(_ tile: [UInt8], for key: TileCacheKey) {
        guard tile.count <= capacityBytes else { return }
        state.withLock { s in
            if let i = s.slots[key] { s.remove(i) }
            while s.statistics.bytes + tile.count > capacityBytes, let last = s.tail {
                s.remove(last)
                s.statistics.evictions += 1
            }
            s.pushFront(key, tile)
            s.statistics.insertions += 1
        }
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
    public var keysByRecency: [TileCacheKey] {
        state.withLock { s in
            var out: [TileCacheKey] = []
            var i = s.head
            while let n = i { out.append(s.nodes[n].key); i = s.nodes[n].next }
            return out
        }
    }

    /// Current counters.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Drops every tile (counters other than entries and bytes are kept).
    public func removeAll() {
        state.withLock { s in
            let stats = s.statistics
            s = LRUList()
            s.statistics = stats
            s.statistics.entries = 0
            s.statistics.bytes = 0
        }
    }
}

/// A doubly linked list in an array (indices, not references, so no retain traffic) with a
/// free list for reuse, and a dictionary from key to node.
struct LRUList: Sendable {
    struct Node: Sendable {
        var key: TileCacheKey
        var value: [UInt8]
        var previous: Int?
        var next: Int?
    }

    var nodes: [Node] = []
    var free: [Int] = []
    var slots: [TileCacheKey: Int] = [:]
    var head: Int?
    var tail: Int?
    var statistics = TileCache.Statistics()

    mutating func pushFront(_ key: TileCacheKey, _ value: [UInt8]) {
        let node = Node(key: key, value: value, previous: nil, next: head)
        let i: Int
        if let f = free.popLast() { nodes[f] = node; i = f } else { nodes.append(node); i = nodes.count - 1 }
        if let h = head { nodes[h].previous = i }
        head = i
        if tail == nil { tail = i }
        slots[key] = i
        statistics.entries += 1
        statistics.bytes += value.count
    }

    mutating func unlink(_ i: Int) {
        let (p, n) = (nodes[i].previous, nodes[i].next)
        if let p { nodes[p].next = n } else { head = n }
        if let n { nodes[n].previous = p } else { tail = p }
        nodes[i].previous = nil
        nodes[i].next = nil
    }

    mutating func moveToFront(_ i: Int) {
        guard head != i else { return }
        unlink(i)
        nodes[i].next = head
        if let h = head { nodes[h].previous = i }
        head = i
        if tail == nil { tail = i }
    }

    mutating func remove(_ i: Int) {
        unlink(i)
        slots[nodes[i].key] = nil
        statistics.entries -= 1
        statistics.bytes -= nodes[i].value.count
        nodes[i].value = []
        free.append(i)
    }
}
