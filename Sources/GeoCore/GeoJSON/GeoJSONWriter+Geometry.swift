import DomainKernel

extension GeoJSONWriter {
    /// A geometry as GeoJSON: byte for byte what `data(_:)` writes through `JSONEncoder`, in a
    /// tenth of the time for the types the store and the items pages hold (points, polygons,
    /// multipolygons), which a page of features writes on every uncached request and an import
    /// for every area. Other types take the encoder.
    public func string(_ geometry: Geometry) -> String {
        let options = GeoJSONEncodingOptions(precision: precision)
        var out = ""
        func number(_ v: Double) {
            // JSONEncoder's form: the shortest text that reads back, without a ".0" suffix.
            let d = options.round(v).description
            if d.hasSuffix(".0") { out += d.dropLast(2) } else { out += d }
        }
        func position(_ p: Position) {
            out += "["
            number(p.lon)
            out += ","
            number(p.lat)
            if let a = p.altitude { out += ","; number(a) }
            out += "]"
        }
        func rings(_ polygon: Polygon) {
            out += "["
            for (i, ring) in polygon.rightHandRule.rings.enumerated() {
                if i > 0 { out += "," }
                out += "["
                for (j, p) in ring.enumerated() {
                    if j > 0 { out += "," }
                    position(p)
                }
                out += "]"
            }
            out += "]"
        }
        switch geometry {
        case .point(let p):
            out += #"{"coordinates":"#
            position(p)
        case .polygon(let p):
            out.reserveCapacity(p.rings.reduce(40) { $0 + $1.count * 24 })
            out += #"{"coordinates":"#
            rings(p)
        case .multiPolygon(let ps):
            out += #"{"coordinates":["#
            for (i, p) in ps.enumerated() {
                if i > 0 { out += "," }
                rings(p)
            }
            out += "]"
        default:
            return String(decoding: data(geometry), as: UTF8.self)
        }
        out += #","type":""# + geometry.typeName + #""}"#
        return out
    }
}
