import Aggregation
import Support
import Synchronization

/// The newest live statistics of each view (layer version, request, audience), with the data
/// version they hold: what the next verification's release is updated from. One entry per view,
/// not one per data version, so a busy verification day keeps a few views, not hundreds.
final class LiveViews: Sendable {
    struct Entry: Sendable {
        let dataVersion: Int64
        let statistics: LiveStatistics
    }

    /// Views by key without data version, least recently used first out.
    private let views: Mutex<ByteBoundedLRU<ViewKey, Entry>>

    /// - Parameters:
    ///   - bound: views kept; 0 keeps none.
    ///   - bytes: approximate bytes of the views kept: one view of a 300,000-area layer holds
    ///     its release and every area's raw numbers.
    init(bound: Int = 16, bytes: Int = .max) {
        views = Mutex(ByteBoundedLRU(capacityBytes: bytes, maximumCount: bound) { key, entry in key.size + entry.statistics.approximateBytes })
    }

    /// Look-ups answered and not, and the approximate bytes held: for the metrics.
    var statistics: (hits: Int, misses: Int, bytes: Int) { views.withLock { ($0.hits, $0.misses, $0.bytes) } }

    /// The view's newest statistics (whatever numbers its key names).
    func get(_ key: VersionedKey) -> Entry? {
        views.withLock { $0.get(key.view) }
    }

    /// Keeps `entry` unless the view already holds a newer data version (two requests updating
    /// at once: the later version wins whichever finishes first).
    func put(_ key: VersionedKey, _ entry: Entry) {
        let view = key.view
        views.withLock { views in
            if let held = views.peek(view), held.dataVersion > entry.dataVersion { return }
            views.insert(entry, for: view)
        }
    }
}
