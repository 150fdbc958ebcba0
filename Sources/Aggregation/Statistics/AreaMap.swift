/// Values by area id, kept in shards, so that a copy with a few areas changed copies a few
/// shards instead of every entry: copying a 300,000-entry dictionary of released statistics
/// took about 100 ms (a retain per field of every entry), which made each verification's live
/// release cost as much as the layer was large.
///
/// Shards are picked by the id's hash: the layout is the same for every map of one process, and
/// equality compares entries, never layouts.
///
/// A map may have a fallback: the value of every id it does not hold. A published release holds
/// the areas that have reports and gives every other area of its layer the same zero numbers.
/// `count`, iteration and `values` are about the entries held.
public struct AreaMap<Value: Sendable>: Sendable {
    private var shards: [[String: Value]]
    /// Number of entries held.
    public private(set) var count: Int = 0
    /// The value of every id not held; nil: such ids have none.
    public let fallback: Value?

    /// An empty map sized for about `capacity` entries (the shard count is fixed from then on).
    public init(minimumCapacity capacity: Int = 0, fallback: Value? = nil) {
        self.fallback = fallback
        var shardCount = 1
        while shardCount < 4096, shardCount * Self.entriesPerShard < capacity { shardCount *= 2 }
        let perShard = capacity / shardCount + 1
        shards = (0..<shardCount).map { _ in [String: Value](minimumCapacity: perShard) }
    }

    /// The entries `keys[i]: values[i]`, the keys unique.
    public init(keys: [String], values: [Value]) {
        precondition(keys.count == values.count)
        self.init(minimumCapacity: keys.count)
        for i in keys.indices { self[keys[i]] = values[i] }
    }

    /// Entries a shard holds at most before the shard count doubles (at construction): small
    /// enough to copy in microseconds.
    static var entriesPerShard: Int { 256 }

    private func shard(_ id: String) -> Int { id.hashValue & (shards.count - 1) }

    /// The value of an area (the fallback for an id not held); setting nil removes it.
    public subscript(id: String) -> Value? {
        get { shards[shard(id)][id] ?? fallback }
        set {
            let s = shard(id)
            let old = newValue == nil ? shards[s].removeValue(forKey: id) : shards[s].updateValue(newValue!, forKey: id)
            if old == nil && newValue != nil { count += 1 } else if old != nil && newValue == nil { count -= 1 }
        }
    }

    /// Every id held, in no particular order.
    public var keys: [String] { shards.flatMap(\.keys) }
    /// Every value held, in no particular order.
    public var values: [Value] { shards.flatMap(\.values) }
    public var isEmpty: Bool { count == 0 }

    /// Whether any value the map gives, held or the fallback, satisfies `predicate`.
    public func anyValue(where predicate: (Value) -> Bool) -> Bool {
        fallback.map(predicate) == true || shards.contains { $0.values.contains(where: predicate) }
    }
}

extension AreaMap: Sequence {
    public typealias Element = (key: String, value: Value)

    public func makeIterator() -> AnyIterator<Element> {
        var outer = shards.makeIterator()
        var inner: Dictionary<String, Value>.Iterator?
        return AnyIterator {
            while true {
                if let next = inner?.next() { return next }
                guard let shard = outer.next() else { return nil }
                inner = shard.makeIterator()
            }
        }
    }

    public var underestimatedCount: Int { count }
}

extension AreaMap: Equatable where Value: Equatable {
    public static func == (lhs: AreaMap, rhs: AreaMap) -> Bool {
        lhs.count == rhs.count && lhs.fallback == rhs.fallback && lhs.allSatisfy { rhs[$0.key] == $0.value }
    }
}

extension AreaMap: Encodable where Value: Encodable {
    /// An object keyed by area id, as a dictionary encodes: the entries held (a map with a
    /// fallback cannot list the ids it stands for, and refuses).
    public func encode(to encoder: any Encoder) throws {
        try AreaIDKey.encode(self, hasFallback: fallback != nil, to: encoder)
    }
}

/// An area id as a JSON member name: values by area id encode as an object.
struct AreaIDKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }

    /// `entries` as an object keyed by id; refused when a fallback stands for ids not listed.
    static func encode<Value: Encodable>(_ entries: some Sequence<(key: String, value: Value)>, hasFallback: Bool, to encoder: any Encoder) throws {
        guard !hasFallback else {
            throw EncodingError.invalidValue(Array(entries.map(\.key)),
                                             .init(codingPath: encoder.codingPath, debugDescription: "values with a fallback list only some of their ids"))
        }
        var container = encoder.container(keyedBy: AreaIDKey.self)
        for (id, value) in entries { try container.encode(value, forKey: AreaIDKey(stringValue: id)) }
    }
}
