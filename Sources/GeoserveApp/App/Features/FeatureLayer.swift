import GeoCore
import Storage
import Support

/// A published layer's features in paging order, their geometry written as GeoJSON when a page
/// asks for it.
///
/// Geometry changes only with the layer version, but it is written per request rather than kept
/// written: held as text it doubled the layer's memory (87 MB for 300,000 areas) and took
/// seconds at every start, for pages that show a few features; the response cache keeps the
/// pages people ask for.
struct FeatureLayer: Sendable {
    /// Area ids in ascending byte order: the stable paging key.
    let ids: [String]
    let names: [String?]
    let geometries: [Geometry]
    let boxes: [BoundingBox?]
    /// Bounding box of the whole layer.
    let extent: BoundingBox?
    /// The GeoJSON type every feature is served as (`Point`, `Polygon` or `MultiPolygon`).
    let geometryType: String
    /// Public properties as JSON members without braces (may be empty), name first: written at
    /// load, as they are short, by `JSONBuffer` (`JSONEncoder` took 40 ms of a 100,000-cell
    /// layer's start for them). Kept end to end in one
    /// buffer (feature i's are `memberBytes[memberStarts[i]..<memberStarts[i + 1]]`): a string
    /// each took 64 bytes of heap for 20 of text, 19 MB at 300,000 areas.
    private let memberBytes: [UInt8]
    private let memberStarts: [Int32]
    /// Whether polygons are served as one-polygon multipolygons (the layer mixes both).
    private let widensPolygons: Bool
    private let precision: Int

    /// - Parameter sorted: the features in ascending byte order of id (`PublishedLayer` sorts them).
    init(features sorted: [StoredArea], precision: Int) {
        assert(zip(sorted, sorted.dropFirst()).allSatisfy { ByteOrderedSearch.precedes($0.id, $1.id) }, "features not in id order")
        self.precision = precision
        ids = sorted.map(\.id)
        names = sorted.map(\.name)
        geometries = sorted.map(\.geometry)
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        starts.reserveCapacity(sorted.count + 1)
        for f in sorted {
            var members = JSONBuffer(capacity: 64)
            if let name = f.name { members.key("name"); members.string(name) }
            for key in f.properties.keys.sorted() where key != "name" {
                members.key(key)
                members.value(f.properties[key]!)
            }
            bytes.append(contentsOf: members.bytes)
            starts.append(Int32(bytes.count))
        }
        memberBytes = bytes
        memberStarts = starts
        boxes = sorted.map(\.geometry.boundingBox)
        // A layer that mixes Polygon and MultiPolygon is served as MultiPolygon throughout: GIS
        // clients fix a layer's geometry type from its first features, and a GeoPackage or a
        // Spatialite table refuses (or warns about) a MultiPolygon in a Polygon layer.
        widensPolygons = sorted.contains { if case .polygon = $0.geometry { true } else { false } }
            && sorted.contains { if case .multiPolygon = $0.geometry { true } else { false } }
        geometryType = widensPolygons ? "MultiPolygon" : sorted.first?.geometry.typeName ?? "Polygon"
        var box: BoundingBox?
        for b in boxes.compactMap({ $0 }) { if box == nil { box = b } else { box!.extend(b) } }
        extent = box
    }

    /// `"geometry":{…}`, coordinates rounded to the configured precision.
    private func geometryMember(_ i: Int) -> String {
        let writer = GeoJSONWriter(precision: precision)
        let served: Geometry = if widensPolygons, case .polygon(let p) = geometries[i] { .multiPolygon([p]) } else { geometries[i] }
        return #""geometry":"# + writer.string(served)
    }

    /// The position of the feature with this id.
    func ordinal(of id: String) -> Int? {
        ByteOrderedSearch.position(of: id, count: ids.count) { ids[$0] }
    }

    /// Feature i's property members (see `memberBytes`).
    func propertyMembers(_ i: Int) -> String {
        String(decoding: memberBytes[Int(memberStarts[i])..<Int(memberStarts[i + 1])], as: UTF8.self)
    }

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
        let properties = propertyMembers(i)
        var s = #"{"type":"Feature","id":"# + JSONText.string(ids[i]) + "," + geometryMember(i) + #","properties":{"#
        s += properties
        if let extra, !extra.isEmpty {
            if !properties.isEmpty { s += "," }
            s += extra
        }
        s += "}"
        if let links { s += #","links":"# + links }
        s += "}"
        return s
    }
}
