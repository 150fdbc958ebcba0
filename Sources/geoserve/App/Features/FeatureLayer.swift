import GeoCore
import Storage

/// A published layer's features, encoded once as GeoJSON fragments for the items endpoints.
///
/// Geometry and public properties change only with the layer version, so they are encoded when
/// the version is loaded; a response then only joins fragments and adds the statistics of the
/// data version it answers for.
struct FeatureLayer: Sendable {
    /// Area ids in ascending byte order: the stable paging key.
    let ids: [String]
    let names: [String?]
    /// `"geometry":{…}` members, coordinates rounded to the configured precision.
    let geometryMembers: [String]
    /// Public properties as JSON members without braces (may be empty), name first.
    let propertyMembers: [String]
    let geometries: [Geometry]
    let boxes: [BoundingBox?]
    /// Bounding box of the whole layer.
    let extent: BoundingBox?
    /// The GeoJSON type every feature is served as (`Point`, `Polygon` or `MultiPolygon`).
    let geometryType: String
    private let ordinals: [String: Int]

    init(features: [StoredArea], precision: Int) {
        let sorted = features.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        let writer = GeoJSONWriter(precision: precision)
        ids = sorted.map(\.id)
        names = sorted.map(\.name)
        geometries = sorted.map(\.geometry)
        boxes = sorted.map(\.geometry.boundingBox)
        // A layer that mixes Polygon and MultiPolygon is served as MultiPolygon throughout: GIS
        // clients fix a layer's geometry type from its first features, and a GeoPackage or a
        // Spatialite table refuses (or warns about) a MultiPolygon in a Polygon layer.
        let mixed = sorted.contains { if case .polygon = $0.geometry { true } else { false } }
            && sorted.contains { if case .multiPolygon = $0.geometry { true } else { false } }
        geometryType = mixed ? "MultiPolygon" : sorted.first?.geometry.typeName ?? "Polygon"
        geometryMembers = sorted.map { f in
            let served: Geometry = if mixed, case .polygon(let p) = f.geometry { .multiPolygon([p]) } else { f.geometry }
            return #""geometry":"# + writer.string(served)
        }
        propertyMembers = sorted.map { f in
            var members: [String] = []
            if let name = f.name { members.append(#""name":"# + JSONText.string(name)) }
            for key in f.properties.keys.sorted() where key != "name" {
                members.append(JSONText.string(key) + ":" + writer.string(f.properties[key]!))
            }
            return members.joined(separator: ",")
        }
        var box: BoundingBox?
        for b in boxes.compactMap({ $0 }) { if box == nil { box = b } else { box!.extend(b) } }
        extent = box
        ordinals = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    }

    func ordinal(of id: String) -> Int? { ordinals[id] }

    /// Ordinals of the features that meet `box` (every feature without a box filter), in order.
    func matching(_ filter: BoxFilter?) -> [Int] {
        guard let filter else { return Array(ids.indices) }
        return ids.indices.filter { i in
            guard let b = boxes[i] else { return false }
            return filter.boxes.contains { q in b.intersects(q) && geometries[i].intersects(q) }
        }
    }

    /// One feature as GeoJSON; `extra` are further property members (statistics).
    func feature(_ i: Int, extra: String?, links: String?) -> String {
        var s = #"{"type":"Feature","id":"# + JSONText.string(ids[i]) + "," + geometryMembers[i] + #","properties":{"#
        s += propertyMembers[i]
        if let extra, !extra.isEmpty {
            if !propertyMembers[i].isEmpty { s += "," }
            s += extra
        }
        s += "}"
        if let links { s += #","links":"# + links }
        s += "}"
        return s
    }
}
