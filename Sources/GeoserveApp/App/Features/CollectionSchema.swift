import Storage
import Support

/// A collection's features as a JSON Schema (OGC API – Features Part 5, `application/schema+json`):
/// the geometry type and every property with its type, the statistics included, so that GIS
/// clients (GDAL reads it through the `describedBy` link) get typed fields from the start, even
/// when the first page's numbers are all withheld.
enum CollectionSchema {
    static func document(_ layer: PublishedLayer, statistics flat: FlatStatistics, base: String) -> String {
        var properties: [String] = []
        if layer.hasNames {
            properties.append(#""name":{"type":"string","title":"name"}"#)
        }
        let types = layer.propertyTypes
        for key in types.keys.sorted() { properties.append(JSONText.string(key) + #":{"type":"# + JSONText.string(types[key]!) + "}") }
        for field in flat.fields {
            properties.append(JSONText.string(field.name) + #":{"type":"# + (field.isInteger ? #""integer""# : #""number""#)
                              + #","description":"null when withheld by disclosure control"}"#)
        }
        properties.append(#""suppressed":{"type":"string","description":"the statistics withheld by disclosure control, comma-separated"}"#)
        let geometry = "geometry-" + layer.encoded.geometryType.lowercased()
        var s = #"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"#
        s += JSONText.string(OGCDocuments.schemaURL(layer.info.layer, base: base))
        s += #","title":"# + JSONText.string(layer.info.layer) + #","type":"object","required":["type","geometry","properties"],"properties":{"#
        s += #""type":{"type":"string","enum":["Feature"]},"id":{"type":"string"},"#
        s += #""geometry":{"type":"object","format":"# + JSONText.string(geometry) + #","x-ogc-role":"primary-geometry"},"#
        s += #""properties":{"type":"object","properties":{"# + properties.joined(separator: ",") + "}}}}"
        return s
    }

    /// Each property's JSON Schema type over a layer's features (a key whose values disagree is
    /// `number` for integers and fractions, `string` otherwise); `name` is the name column's.
    static func propertyTypes(_ features: [StoredArea]) -> [String: String] {
        var types: [String: String] = [:]
        for f in features {
            for (key, value) in f.properties where key != "name" {
                let type: String
                switch value {
                case .number(let n): type = n == n.rounded() && types[key] != "number" ? "integer" : "number"
                case .string: type = "string"
                case .bool: type = "boolean"
                default: type = "object"
                }
                if let known = types[key], known != type { types[key] = known == "integer" && type == "number" ? "number" : "string" } else { types[key] = type }
            }
        }
        return types
    }
}
