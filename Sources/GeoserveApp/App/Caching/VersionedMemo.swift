import Support
import Synchronization

/// Values computed once per `VersionedKey`, kept least recently used first out within an entry
/// bound and a byte bound: a verifiers' live release of a 300,000-area layer holds about 180 MB
/// (a published one only its areas with reports), so a count alone (256 releases) did not bound
/// memory at all.
final class VersionedMemo<Value: Sendable>: Sendable {
    private let entries: Mutex<ByteBoundedLRU<VersionedKey, Value>>
    let bound: Int

    /// - Parameters:
    ///   - bound: entries kept; 0 keeps none.
    ///   - bytes: summed cost of the entries kept.
    ///   - cost: approximate bytes a value holds (the key's are added).
    init(bound: Int = 256, bytes: Int = .max, cost: @escaping @Sendable (Value) -> Int = { _ in 0 }) {
        self.bound = bound
        entries = Mutex(ByteBoundedLRU(capacityBytes: bytes, maximumCount: bound) { key, value in key.size + cost(value) })
    }

    func get(_ key: VersionedKey) -> Value? {
        entries.withLock { $0.get(key) }
    }

    func put(_ key: VersionedKey, _ value: Value) {
        entries.withLock { $0.insert(value, for: key) }
    }

    /// Look-ups answered and not, entries held and their summed cost: for the metrics.
    var statistics: (hits: Int, misses: Int, count: Int, bytes: Int) {
        entries.withLock { ($0.hits, $0.misses, $0.count, $0.bytes) }
    }
}
