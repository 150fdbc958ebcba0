import GeoCore
import Storage

/// A published layer version, ready to answer queries. Immutable.
struct PublishedLayer: Sendable {
    let info: LayerVersionInfo
    let features: [StoredArea]
    /// For area layers.
    let areaIndex: AreaIndex?
    /// For point layers.
    let pointIndex: PointLayerIndex?
    /// A point inside each area (GEOS point-on-surface), by the index's ordinal: to place a report
    /// that names an area in the other layers, and to anchor tile labels.
    let interiorPoints: [Position?]
    /// The features as GeoJSON fragments for the OGC endpoints.
    let encoded: FeatureLayer
    /// Capacity or population per area, for rates.
    let denominators: [String: Double]
    /// Whether the area index was read from its file, built and saved, or built; nil for points.
    let indexSource: AreaIndexFiles.Source?
    /// Why a saved index was not used or a new one not saved, for the log.
    let indexProblem: String?
    private let byID: [String: Int]

    /// - Parameter indexFiles: where area indexes are saved and read back; nil builds at every load.
    init(info: LayerVersionInfo, features: [StoredArea], precision: Int = 6, indexFiles: AreaIndexFiles? = nil) {
        self.info = info
        self.features = features
        self.encoded = FeatureLayer(features: features, precision: precision)
        self.denominators = StatisticsService.denominators(features)
        self.byID = Dictionary(uniqueKeysWithValues: features.enumerated().map { ($1.id, $0) })
        switch info.kind {
        case .areas:
            let areas = features.map { IndexedArea(id: $0.id, polygons: $0.geometry.polygons) }
            let prepared = indexFiles?.prepare(layer: info.layer, version: info.version, areas: areas) ?? AreaIndexFiles.build(areas: areas)
            (areaIndex, interiorPoints) = (prepared.index, prepared.interiorPoints)
            (indexSource, indexProblem) = (prepared.source, prepared.problem)
            pointIndex = nil
        case .points:
            areaIndex = nil
            pointIndex = PointLayerIndex(sites: features.compactMap { f in
                if case .point(let p) = f.geometry { PointSite(id: f.id, lon: p.lon, lat: p.lat) } else { nil }
            })
            interiorPoints = []
            (indexSource, indexProblem) = (nil, nil)
        }
    }
}

extension PublishedLayer {
    /// The feature with this id, if the layer has one.
    func feature(id: String) -> StoredArea? { byID[id].map { features[$0] } }

    /// A point inside the area with this id, if the layer has it.
    func interiorPoint(of id: String) -> Position? {
        areaIndex?.ordinal(of: id).flatMap { interiorPoints[$0] }
    }
}
