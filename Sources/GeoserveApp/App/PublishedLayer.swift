import GeoCore
import DomainKernel
import Storage
import Support

/// A published layer version, ready to answer queries. Immutable.
package struct PublishedLayer: Sendable {
    let info: LayerVersionInfo
    /// In the served order. A feature's `properties` may be empty here while it has some: read
    /// them with `properties(of:)`.
    let features: [StoredArea]
    /// For area layers.
    package let areaIndex: AreaIndex?
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
    /// Each property's JSON Schema type, and whether any feature has a name (the schema).
    let propertyTypes: [String: String]
    let hasNames: Bool
    /// By position in `features`: whether its properties were let go after load, to be read back
    /// from the served members when asked. Held as parsed dictionaries they were the largest
    /// part of a layer's memory after its geometry (23 MB at 300,000 areas).
    private let propertiesReadBack: [Bool]

    /// - Parameter indexFiles: where area indexes are saved and read back; nil builds at every load.
    init(info: LayerVersionInfo, features unordered: [StoredArea], precision: Int = 6, indexFiles: AreaIndexFiles? = nil) {
        // In the served order (ids by their bytes, as both stores already read them): a feature's
        // place is then its ordinal in `encoded`, found without a dictionary of its own.
        let sorted = unordered.sorted { ByteOrderedSearch.precedes($0.id, $1.id) }
        self.info = info
        // The index (read back and its digest checked, or built) needs only the geometry, and
        // the served form only the features: side by side they took 0.12 s and 0.09 s of a
        // 100,000-cell layer's start one after the other.
        let (prepared, served) = bothAtOnce({ Self.prepareIndex(info: info, features: sorted, indexFiles: indexFiles) },
                                            { Served(sorted, precision: precision) })
        (features, encoded, propertiesReadBack) = (served.features, served.encoded, served.readBack)
        (denominators, propertyTypes, hasNames) = (served.denominators, served.propertyTypes, served.hasNames)
        switch info.kind {
        case .areas:
            (areaIndex, interiorPoints) = (prepared?.index, prepared?.interiorPoints ?? [])
            (indexSource, indexProblem) = (prepared?.source, prepared?.problem)
            pointIndex = nil
        case .points:
            areaIndex = nil
            pointIndex = PointLayerIndex(sites: sorted.compactMap { f in
                if case .point(let p) = f.geometry { PointSite(id: f.id, lon: p.lon, lat: p.lat) } else { nil }
            })
            interiorPoints = []
            (indexSource, indexProblem) = (nil, nil)
        }
    }

    /// The area index a start uses (nil for a point layer): read from its file, or built and
    /// saved there.
    static func prepareIndex(info: LayerVersionInfo, features: [StoredArea], indexFiles: AreaIndexFiles?) -> AreaIndexFiles.Prepared? {
        guard info.kind == .areas else { return nil }
        let areas = features.map { IndexedArea(id: $0.id, polygons: $0.geometry.polygons) }
        return indexFiles?.prepare(layer: info.layer, version: info.version, areas: areas) ?? AreaIndexFiles.build(areas: areas)
    }

    /// What the OGC endpoints serve of the features, and the features as kept after load.
    private struct Served: Sendable {
        let features: [StoredArea]
        let encoded: FeatureLayer
        let readBack: [Bool]
        let denominators: [String: Double]
        let propertyTypes: [String: String]
        let hasNames: Bool

        init(_ sorted: [StoredArea], precision: Int) {
            encoded = FeatureLayer(features: sorted, precision: precision)
            denominators = StoredArea.denominators(sorted)
            propertyTypes = CollectionSchema.propertyTypes(sorted)
            hasNames = sorted.contains { $0.name != nil }
            var features = sorted
            var readBack = [Bool](repeating: false, count: features.count)
            for i in features.indices where PublishedLayer.readsBackExactly(features[i]) {
                let f = features[i]
                features[i] = StoredArea(id: f.id, name: f.name, properties: [:], geometry: f.geometry)
                readBack[i] = true
            }
            self.features = features
            self.readBack = readBack
        }
    }
}

extension PublishedLayer {
    /// The feature with this id, if the layer has one (its properties through `properties(of:)`).
    func feature(id: String) -> StoredArea? { encoded.ordinal(of: id).map { features[$0] } }

    /// The stored properties of the feature with this id, exactly as stored.
    func properties(of id: String) -> [String: JSONValue] {
        guard let i = encoded.ordinal(of: id) else { return [:] }
        guard propertiesReadBack[i] else { return features[i].properties }
        return StoredArea.properties("{" + encoded.propertyMembers(i) + "}") ?? [:]
    }

    /// Whether the served members give back exactly these properties: the name member is the
    /// `name` property (or neither exists), and every value is a string, a boolean, null or an
    /// integer that a double holds exactly — written and parsed without loss. Anything else
    /// (fractions, arrays, objects, a name taken from another property) stays in memory.
    fileprivate static func readsBackExactly(_ f: StoredArea) -> Bool {
        guard f.properties["name"] == f.name.map(JSONValue.string) else { return false }
        return f.properties.values.allSatisfy { value in
            switch value {
            case .null, .bool, .string: true
            case .number(let n): n == n.rounded() && abs(n) < 1e15
            case .array, .object: false
            }
        }
    }

    /// A point inside the area with this id, if the layer has it.
    func interiorPoint(of id: String) -> Position? {
        areaIndex?.ordinal(of: id).flatMap { interiorPoints[$0] }
    }
}
