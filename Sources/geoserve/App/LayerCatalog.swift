import GeoCore
import Storage
import Synchronization

/// A published layer version, ready to answer queries. Immutable.
struct PublishedLayer: Sendable {
    let info: LayerVersionInfo
    let features: [StoredArea]
    /// For area layers.
    let areaIndex: AreaIndex?
    /// For point layers.
    let pointIndex: PointLayerIndex?
    /// A point inside each area (GEOS point-on-surface), to place a report that names an area in
    /// the other layers.
    let interiorPoints: [String: (lon: Double, lat: Double)]
    /// The features as GeoJSON fragments for the OGC endpoints.
    let encoded: FeatureLayer
    /// Capacity or population per area, for rates.
    let denominators: [String: Double]
    private let byID: [String: Int]

    init(info: LayerVersionInfo, features: [StoredArea], precision: Int = 6) {
        self.info = info
        self.features = features
        self.encoded = FeatureLayer(features: features, precision: precision)
        self.denominators = StatisticsService.denominators(features)
        self.byID = Dictionary(uniqueKeysWithValues: features.enumerated().map { ($1.id, $0) })
        switch info.kind {
        case .areas:
            areaIndex = AreaIndex(areas: features.map { IndexedArea(id: $0.id, polygons: $0.geometry.polygons) })
            pointIndex = nil
            let context = GEOSContext()
            var points: [String: (lon: Double, lat: Double)] = [:]
            for f in features {
                if let p = try? context.geometry(f.geometry).pointOnSurface() { points[f.id] = p }
            }
            interiorPoints = points
        case .points:
            areaIndex = nil
            pointIndex = PointLayerIndex(sites: features.compactMap { f in
                if case .point(let p) = f.geometry { PointSite(id: f.id, lon: p.lon, lat: p.lat) } else { nil }
            })
            interiorPoints = [:]
        }
    }
}

extension PublishedLayer {
    /// The feature with this id, if the layer has one.
    func feature(id: String) -> StoredArea? { byID[id].map { features[$0] } }
}

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
            guard let v = summary.publishedVersion, current[summary.name]?.info.version != v else { continue }
            let info = summary.versions.first { $0.version == v }!
            let features = try await store.areas(layer: summary.name, version: v)
            let built = PublishedLayer(info: info, features: features, precision: precision)
            layers.withLock { $0[summary.name] = built }
        }
    }
}
