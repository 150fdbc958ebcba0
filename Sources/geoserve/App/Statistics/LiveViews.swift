import Aggregation
import GeoCore
import Synchronization

/// The newest live statistics of each view (layer version, request, audience), with the data
/// version they hold: what the next verification's release is updated from. One entry per view,
/// not one per data version, so a busy verification day keeps a few views, not hundreds.
final class LiveViews: Sendable {
    struct Entry: Sendable {
        let dataVersion: Int64
        let statistics: LiveStatistics
    }

    /// Views by key without data version, least recently used first out (each costs 1).
    private let views: Mutex<ByteBoundedLRU<VersionedKey, Entry>>

    /// - Parameter bound: views kept; 0 keeps none.
    init(bound: Int = 16) {
        views = Mutex(ByteBoundedLRU(capacityBytes: bound) { _, _ in 1 })
    }

    /// The view's newest statistics (its key's `dataVersion` is ignored).
    func get(_ key: VersionedKey) -> Entry? {
        views.withLock { $0.get(Self.view(key)) }
    }

    /// Keeps `entry` unless the view already holds a newer data version (two requests updating
    /// at once: the later version wins whichever finishes first).
    func put(_ key: VersionedKey, _ entry: Entry) {
        let view = Self.view(key)
        views.withLock { views in
            if let held = views.get(view), held.dataVersion > entry.dataVersion { return }
            views.insert(entry, for: view)
        }
    }

    private static func view(_ key: VersionedKey) -> VersionedKey {
        VersionedKey(layer: key.layer, layerVersion: key.layerVersion, dataVersion: 0, day: key.day, selector: key.selector)
    }
}
