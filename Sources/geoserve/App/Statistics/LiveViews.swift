import Aggregation
import Synchronization

/// The newest live statistics of each view (layer version, request, audience), with the data
/// version they hold: what the next verification's release is updated from. One entry per view,
/// not one per data version, so a busy verification day keeps a few views, not hundreds.
final class LiveViews: Sendable {
    struct Entry: Sendable {
        let dataVersion: Int64
        let statistics: LiveStatistics
    }

    private struct State {
        var entries: [VersionedKey: Entry] = [:]
        /// Views, least recently stored first.
        var order: [VersionedKey] = []
    }

    private let state = Mutex(State())
    /// Views kept; the least recently stored goes first.
    let bound: Int

    init(bound: Int = 16) {
        self.bound = bound
    }

    /// The view's newest statistics (its key's `dataVersion` is ignored).
    func get(_ key: VersionedKey) -> Entry? {
        state.withLock { $0.entries[Self.view(key)] }
    }

    /// Keeps `entry` unless the view already holds a newer data version (two requests updating
    /// at once: the later version wins whichever finishes first).
    func put(_ key: VersionedKey, _ entry: Entry) {
        guard bound > 0 else { return }
        let view = Self.view(key)
        state.withLock { state in
            if let held = state.entries[view], held.dataVersion > entry.dataVersion { return }
            state.order.removeAll { $0 == view }
            state.order.append(view)
            while state.order.count > bound { state.entries[state.order.removeFirst()] = nil }
            state.entries[view] = entry
        }
    }

    private static func view(_ key: VersionedKey) -> VersionedKey {
        VersionedKey(layer: key.layer, layerVersion: key.layerVersion, dataVersion: 0, day: key.day, selector: key.selector)
    }
}
