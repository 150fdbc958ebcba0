/// Values by key, the least recently used evicted first, bounded by the bytes a cost function
/// gives each entry — for caches of encoded responses and tiles, whose sizes vary too much for an
/// entry count to bound memory.
///
/// A doubly linked list in an array (indices, not references, so no retain traffic) with a free
/// list for reuse, and a dictionary from key to node: every operation is a few index updates.
/// A value type; callers share one behind a lock.
public struct ByteBoundedLRU<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Node: Sendable {
        var key: Key
        var value: Value?
        var size: Int
        var previous: Int?
        var next: Int?
    }

    /// Bound on the summed cost of the entries held.
    public let capacityBytes: Int
    private let cost: @Sendable (Key, Value) -> Int
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var slots: [Key: Int] = [:]
    private var head: Int?
    private var tail: Int?

    /// Summed cost of the entries held.
    public private(set) var bytes = 0
    /// Look-ups answered, and not.
    public private(set) var hits = 0, misses = 0
    /// Entries stored, and dropped to stay within the bound.
    public private(set) var insertions = 0, evictions = 0
    /// Entries held.
    public var count: Int { slots.count }

    /// Bound on the number of entries held.
    public let maximumCount: Int

    public init(capacityBytes: Int, maximumCount: Int = .max, cost: @escaping @Sendable (Key, Value) -> Int) {
        self.capacityBytes = capacityBytes
        self.maximumCount = maximumCount
        self.cost = cost
    }

    /// The value for a key, marking it most recently used; nil on a miss.
    public mutating func get(_ key: Key) -> Value? {
        guard let i = slots[key] else { misses += 1; return nil }
        hits += 1
        moveToFront(i)
        return nodes[i].value
    }

    /// The value for a key without marking it used or counting the look-up.
    public func peek(_ key: Key) -> Value? {
        slots[key].flatMap { nodes[$0].value }
    }

    /// Stores a value, evicting least recently used entries until it fits both bounds. A value
    /// costing more than the whole bound is not stored.
    public mutating func insert(_ value: Value, for key: Key) {
        let size = cost(key, value)
        guard size <= capacityBytes, maximumCount > 0 else { return }
        if let i = slots[key] { remove(i) }
        while bytes + size > capacityBytes || slots.count >= maximumCount, let last = tail {
            remove(last)
            evictions += 1
        }
        let node = Node(key: key, value: value, size: size, previous: nil, next: head)
        let i: Int
        if let f = free.popLast() { nodes[f] = node; i = f } else { nodes.append(node); i = nodes.count - 1 }
        if let h = head { nodes[h].previous = i }
        head = i
        if tail == nil { tail = i }
        slots[key] = i
        bytes += size
        insertions += 1
    }

    /// Drops every entry; the counters of look-ups, insertions and evictions are kept.
    public mutating func removeAll() {
        nodes = []
        free = []
        slots = [:]
        head = nil
        tail = nil
        bytes = 0
    }

    /// Keys from most to least recently used (for tests and diagnostics).
    public var keysByRecency: [Key] {
        var out: [Key] = []
        var i = head
        while let n = i { out.append(nodes[n].key); i = nodes[n].next }
        return out
    }

    private mutating func unlink(_ i: Int) {
        let (p, n) = (nodes[i].previous, nodes[i].next)
        if let p { nodes[p].next = n } else { head = n }
        if let n { nodes[n].previous = p } else { tail = p }
        nodes[i].previous = nil
        nodes[i].next = nil
    }

    private mutating func moveToFront(_ i: Int) {
        guard head != i else { return }
        unlink(i)
        nodes[i].next = head
        if let h = head { nodes[h].previous = i }
        head = i
        if tail == nil { tail = i }
    }

    private mutating func remove(_ i: Int) {
        unlink(i)
        slots[nodes[i].key] = nil
        bytes -= nodes[i].size
        nodes[i].value = nil
        free.append(i)
    }
}
