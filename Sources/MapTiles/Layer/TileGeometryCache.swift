import Support
import Synchronization

/// The simplified geometry of layer versions per zoom and scale, least recently used evicted
/// first, bounded in bytes and shared by every `TileLayer` of a process.
///
/// Kept for a layer's life, every zoom and scale of every layer version ever drawn stayed in
/// memory; the saturation rule (`TileLayer.geometry`) bounds one layer version's zooms to about
/// three times its full detail (74 MB for 300,000 generated hexagons), this bounds them all
/// together. An evicted zoom is simplified again on its next tile (seconds for such a layer,
/// milliseconds for a campus), so the hit rate in the metrics says whether the budget suits the
/// layers served.
public final class TileGeometryCache: Sendable {
    struct Key: Hashable, Sendable {
        let layer: String
        let version: String
        /// The zoom, or -1 for the full-detail geometry deep zooms share.
        let zoom: Int
        let scale: TileScale
    }

    private let state: Mutex<ByteBoundedLRU<Key, ZoomGeometry>>

    /// A cache holding at most `capacityBytes` of geometry. Geometry larger than the whole
    /// budget is used for the tile at hand and not kept.
    public init(capacityBytes: Int) {
        state = Mutex(ByteBoundedLRU(capacityBytes: capacityBytes) { _, geometry in geometry.byteCount })
    }

    /// The byte budget.
    public var capacityBytes: Int { state.withLock { $0.capacityBytes } }

    func geometry(_ key: Key) -> ZoomGeometry? {
        state.withLock { $0.get(key) }
    }

    func insert(_ geometry: ZoomGeometry, for key: Key) {
        state.withLock { $0.insert(geometry, for: key) }
    }

    /// Hits, misses, evictions and bytes held, for the metrics.
    public var statistics: (hits: Int, misses: Int, evictions: Int, bytes: Int) {
        state.withLock { ($0.hits, $0.misses, $0.evictions, $0.bytes) }
    }
}
