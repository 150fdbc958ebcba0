import Synchronization

/// Values computed once per `VersionedKey`: entries of old versions are never asked for again,
/// so when the bound is reached the whole map is dropped rather than kept in recency order.
final class VersionedMemo<Value: Sendable>: Sendable {
    private let entries = Mutex<[VersionedKey: Value]>([:])
    let bound: Int

    init(bound: Int = 256) {
        self.bound = bound
    }

    func get(_ key: VersionedKey) -> Value? {
        entries.withLock { $0[key] }
    }

    func put(_ key: VersionedKey, _ value: Value) {
        guard bound > 0 else { return }
        entries.withLock { map in
            if map.count >= bound { map.removeAll() }
            map[key] = value
        }
    }
}
