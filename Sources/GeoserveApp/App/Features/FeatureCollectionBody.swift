import Storage
/// The GeoJSON FeatureCollection of one items page, with OGC links and counts.
struct FeatureCollectionBody {
    let layer: PublishedLayer
    let page: FeaturePage
    let statistics: FeatureStatistics?
    let query: FeatureQuery
    let base: String

    var text: String {
        let items = "\(base)/collections/\(URLQuery.escape(layer.info.layer))/items"
        var links = [
            OGCDocuments.link(items + "?" + query.linkQuery(cursor: query.cursor), rel: "self", type: FeaturesController.geoJSON),
            OGCDocuments.link(items + "?" + query.linkQuery(cursor: query.cursor, format: .html), rel: "alternate", type: "text/html"),
            OGCDocuments.link("\(base)/collections/\(URLQuery.escape(layer.info.layer))", rel: "collection", type: FeaturesController.json),
        ]
        if let next = page.next {
            links.append(OGCDocuments.link(items + "?" + query.linkQuery(cursor: next), rel: "next", type: FeaturesController.geoJSON, title: "next page"))
        }
        if let previous = page.previous {
            links.append(OGCDocuments.link(items + "?" + query.linkQuery(cursor: previous), rel: "prev", type: FeaturesController.geoJSON, title: "previous page"))
        }
        var s = #"{"type":"FeatureCollection","numberMatched":"# + String(page.numberMatched)
        s += #","numberReturned":"# + String(page.ordinals.count)
        if let members = statistics?.collectionMembers, !members.isEmpty { s += "," + members }
        s += #","links":["# + links.joined(separator: ",") + #"],"features":["#
        var first = true
        for i in page.ordinals {
            if !first { s += "," }
            first = false
            s += layer.encoded.feature(i, extra: statistics?.members(of: layer.encoded.ids[i]), links: nil)
        }
        return s + "]}"
    }
}
