import Storage
import Synchronization

/// The published layers the service answers from.
///
/// Each layer is built completely (its index made) before it replaces the previous one in a
/// single swap, so readers take a consistent snapshot and never wait for an index build.
final class LayerCatalog: Sendable {
    private let layers = Mutex<[String: PublishedLayer]>([:])
    /// Decimal places of coordinates in GeoJSON output.
    let precision: Int

    init(precision: Int = 6) {
        self.precision = precision
    }

    /// A consistent view of every published layer.
    func snapshot() -> [String: PublishedLayer] {
        layers.withLock { $0 }
    }

    /// Loads every published layer whose version differs from the one held.
    func refresh(from store: any AreaStore) async throws {
        let current = snapshot()
        for summary in try await store.layers() {
            guard let v = summary.publishedVersion, current[summary.name]?.info.version != v,
                  let info = summary.versions.first(where: { $0.version == v }) else { continue }
            let features = try await store.areas(layer: summary.name, version: v)
            let built = PublishedLayer(info: info, features: features, precision: precision)
            layers.withLock { $0[summary.name] = built }
        }
    }
}
