import GeoCore
import Storage

/// The fixed documents of OGC API – Features Part 1: landing page, conformance, collections.
enum OGCDocuments {
    static let conformance = [
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html",
    ]
    static let crs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"

    static func link(_ href: String, rel: String, type: String, title: String? = nil) -> String {
        var s = #"{"href":"# + JSONText.string(href) + #","rel":"# + JSONText.string(rel) + #","type":"# + JSONText.string(type)
        if let title { s += #","title":"# + JSONText.string(title) }
        return s + "}"
    }

    static func landing(base: String) -> String {
        let links = [
            link("\(base)/?f=json", rel: "self", type: "application/json", title: "this document"),
            link("\(base)/?f=html", rel: "alternate", type: "text/html", title: "this document as HTML"),
            link("\(base)/openapi.json", rel: "service-desc", type: "application/vnd.oai.openapi+json;version=3.1", title: "the API definition"),
            link("\(base)/conformance", rel: "conformance", type: "application/json", title: "conformance classes"),
            link("\(base)/collections", rel: "data", type: "application/json", title: "the area layers"),
        ]
        return #"{"title":"geoserve","description":"Verified, disclosure-controlled report counts per area.","links":["# + links.joined(separator: ",") + "]}"
    }

    static func schemaURL(_ name: String, base: String) -> String { "\(base)/collections/\(URLQuery.escape(name))/schema" }

    static func conformanceDocument() -> String {
        #"{"conformsTo":["# + conformance.map { JSONText.string($0) }.joined(separator: ",") + "]}"
    }

    static func collection(_ layer: PublishedLayer, base: String) -> String {
        let name = layer.info.layer
        let items = "\(base)/collections/\(URLQuery.escape(name))/items"
        let links = [
            link("\(base)/collections/\(URLQuery.escape(name))", rel: "self", type: "application/json"),
            link(items + "?f=json", rel: "items", type: "application/geo+json", title: "the areas with their numbers"),
            link(items + "?f=html", rel: "items", type: "text/html", title: "the areas as HTML"),
            // OGC API – Features Part 5's relation, and the spelling GDAL looks for.
            link(schemaURL(name, base: base), rel: "http://www.opengis.net/def/rel/ogc/1.0/schema", type: "application/schema+json",
                 title: "the properties and their types"),
            link(schemaURL(name, base: base), rel: "describedBy", type: "application/schema+json", title: "the properties and their types"),
        ]
        var s = #"{"id":"# + JSONText.string(name) + #","title":"# + JSONText.string(name)
        s += #","description":"# + JSONText.string(layer.info.kind == .points ? "Sites (points) of layer \(name), version \(layer.info.version)." :
                                                        "Areas of layer \(name), version \(layer.info.version), with verified report counts.")
        s += #","itemType":"feature","crs":["# + JSONText.string(crs84) + "]"
        if let e = layer.encoded.extent {
            s += #","extent":{"spatial":{"bbox":[["# + e.array.map { JSONText.number($0) }.joined(separator: ",") + #"]],"crs":"# + JSONText.string(crs84) + "}}"
        }
        s += #","links":["# + links.joined(separator: ",") + "]}"
        return s
    }

    static func collections(_ layers: [PublishedLayer], base: String) -> String {
        let links = [link("\(base)/collections", rel: "self", type: "application/json")]
        return #"{"links":["# + links.joined(separator: ",") + #"],"collections":["# + layers.map { collection($0, base: base) }.joined(separator: ",") + "]}"
    }
}
