import Support

/// How large one area and one layer may be. An import is the operator's, but a polygon of a
/// million vertices or a five-megabyte name property made uncached high-zoom tiles take 16 s and
/// grew the process by a gigabyte; limits refuse such features one by one, with the importer's
/// usual per-feature report.
public struct AreaLimits: Hashable, Sendable {
    /// Positions of one feature over all its rings (a detailed campus building has hundreds; a
    /// city district a few thousand; a national coastline simplified for statistics, tens of thousands).
    public var vertices = 100_000
    /// Polygons of one multipolygon feature.
    public var parts = 1_000
    /// Bytes of one feature's properties, keys and values together (name included).
    public var propertyBytes = 64 << 10
    /// Features of one layer.
    public var features = 1_000_000
    /// Positions of one layer over all its features.
    public var layerVertices = 20_000_000

    public init() {}

    /// Why a feature exceeds a limit, nil when it does not; `layerVerticesSoFar` are the
    /// positions of the features accepted before it.
    func problem(_ geometry: Geometry?, properties: [String: JSONValue]?, featuresSoFar: Int, layerVerticesSoFar: Int) -> String? {
        if featuresSoFar >= features { return "the layer already holds \(features) features, the most allowed (--max-layer-features)" }
        if let geometry {
            let n = geometry.vertexCount
            if n > vertices { return "geometry has \(n) positions; at most \(vertices) are allowed (--max-area-vertices)" }
            if geometry.partCount > parts { return "geometry has \(geometry.partCount) parts; at most \(parts) are allowed (--max-area-parts)" }
            if layerVerticesSoFar + n > layerVertices {
                return "the layer would hold more than \(layerVertices) positions (--max-layer-vertices)"
            }
        }
        let bytes = (properties ?? [:]).reduce(0) { $0 + $1.key.utf8.count + $1.value.approximateBytes }
        if bytes > propertyBytes { return "properties take \(bytes) bytes; at most \(propertyBytes) are allowed (--max-area-property-kb)" }
        return nil
    }
}

extension Geometry {
    /// Positions over all rings, lines and members.
    public var vertexCount: Int {
        switch self {
        case .point: return 1
        case .multiPoint(let ps), .lineString(let ps): return ps.count
        case .multiLineString(let ls): return ls.reduce(0) { $0 + $1.count }
        case .polygon(let p): return p.rings.reduce(0) { $0 + $1.count }
        case .multiPolygon(let ps): return ps.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } }
        case .geometryCollection(let gs): return gs.reduce(0) { $0 + $1.vertexCount }
        }
    }

    /// Members of a multi-geometry or collection (1 for a single geometry).
    var partCount: Int {
        switch self {
        case .multiPoint(let ps): return ps.count
        case .multiLineString(let ls): return ls.count
        case .multiPolygon(let ps): return ps.count
        case .geometryCollection(let gs): return gs.reduce(0) { $0 + $1.partCount }
        default: return 1
        }
    }
}

extension JSONValue {
    /// About the bytes of the value written as JSON: text and numbers as written, structure as
    /// one byte per member. Close enough to bound, cheap enough to compute for every feature.
    var approximateBytes: Int {
        switch self {
        case .null, .bool: return 5
        case .number: return 12
        case .string(let s): return s.utf8.count + 2
        case .array(let a): return a.reduce(2) { $0 + $1.approximateBytes + 1 }
        case .object(let o): return o.reduce(2) { $0 + $1.key.utf8.count + 4 + $1.value.approximateBytes }
        }
    }
}
