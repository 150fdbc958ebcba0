import Aggregation
import DomainKernel
import Foundation
import Hummingbird
import ReportVerification
import Storage

/// OGC API – Features Part 1 (Core, GeoJSON, HTML) over the published layers: `/`,
/// `/conformance`, `/collections`, `/collections/{layer}`, `/collections/{layer}/items`,
/// `/collections/{layer}/items/{areaId}`.
///
/// Responses are assembled from fragments encoded once per layer version plus the statistics of
/// the current data version; their ETag covers both, and public bodies are kept in a byte-bounded
/// cache, so a repeated request costs a key lookup.
struct FeaturesController {
    let catalog: LayerCatalog
    let cache: ResponseCache
    let links: LinkBase
    let statistics: StatisticsService
    /// The dashboard, the landing route's HTML form.
    let dashboard: PagesController.Asset

    static let geoJSON = "application/geo+json"
    static let json = "application/json"
    static let html = "text/html; charset=utf-8"

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("/") { request, context in try landing(request, context) }
        group.get("conformance") { request, _ in try conformance(request) }
        group.get("collections") { request, _ in try collections(request) }
        group.get("collections/:layer") { request, context in try collection(request, context) }
        group.get("collections/:layer/schema") { request, context in try schema(request, context) }
        group.get("collections/:layer/items") { request, context in try await items(request, context) }
        group.get("collections/:layer/items/:areaId") { request, context in try await item(request, context) }
    }

    func base(_ request: Request) -> String {
        links.url(for: request)
    }

    func landing(_ request: Request, _ context: AppRequestContext) throws -> Response {
        let q = try FeatureQuery(request, declared: QueryParameters.ogcFormat)
        let b = base(request)
        // People open the service's root in a browser: they get the campus dashboard.
        if q.format == .html { return PagesController.send(dashboard, request) }
        return try fixed(request, OGCDocuments.landing(base: b), type: Self.json)
    }

    func conformance(_ request: Request) throws -> Response {
        let q = try FeatureQuery(request, declared: QueryParameters.ogcFormat)
        if q.format == .html { return page(FeaturePages.list(title: "Conformance", items: OGCDocuments.conformance)) }
        return try fixed(request, OGCDocuments.conformanceDocument(), type: Self.json)
    }

    func collections(_ request: Request) throws -> Response {
        let q = try FeatureQuery(request, declared: QueryParameters.ogcFormat)
        let b = base(request)
        if q.format == .html { return page(FeaturePages.landing(layers: sortedLayers(), base: b)) }
        return try fixed(request, OGCDocuments.collections(sortedLayers(), base: b), type: Self.json)
    }

    func collection(_ request: Request, _ context: AppRequestContext) throws -> Response {
        let q = try FeatureQuery(request, declared: QueryParameters.ogcFormat)
        let layer = try published(context)
        if q.format == .html { return page(FeaturePages.landing(layers: [layer], base: base(request))) }
        return try fixed(request, OGCDocuments.collection(layer, base: base(request)), type: Self.json)
    }

    /// The collection's JSON Schema, for the public view of the default request (published COVID cases).
    func schema(_ request: Request, _ context: AppRequestContext) throws -> Response {
        _ = try QueryValues(request, [])
        let layer = try published(context)
        let view = try statistics.view(layer: layer.info.layer, kind: nil, basis: nil, end: nil, audience: .public, dataVersion: context.dataVersion)
        let flat = StatisticsService.flat(layer, view.request, audience: .public)
        return try fixed(request, CollectionSchema.document(layer, statistics: flat, base: base(request)), type: "application/schema+json")
    }

    func items(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let query = try FeatureQuery(request)
        let layer = try published(context)
        let b = base(request)
        return try await respond(request, context, layer: layer, query: query, resource: "items") { stats in
            if query.format == .html {
                return FeaturePages.items(layer: layer, page: FeaturePage(layer: layer.encoded, query: query), statistics: stats, query: query, base: b)
            }
            return FeatureCollectionBody(layer: layer, page: FeaturePage(layer: layer.encoded, query: query), statistics: stats, query: query, base: b).text
        }
    }

    func item(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let query = try FeatureQuery(request, declared: QueryParameters.item)
        let layer = try published(context)
        // Area ids are the layer's own (spaces, slashes, accents): links carry them
        // percent-encoded, and the router hands the path segment over as it came.
        let segment = try context.parameters.require("areaId")
        let id = segment.removingPercentEncoding ?? segment
        guard let i = layer.encoded.ordinal(of: id) else { throw APIError.notFound("layer \(layer.info.layer) has no feature \"\(id)\"") }
        let b = base(request)
        return try await respond(request, context, layer: layer, query: query, resource: "item/" + id) { stats in
            if query.format == .html { return FeaturePages.item(layer: layer, ordinal: i, statistics: stats, base: b) }
            let collection = "\(b)/collections/\(URLQuery.escape(layer.info.layer))"
            let links = "[" + [
                OGCDocuments.link("\(collection)/items/\(URLQuery.escape(id))?f=json", rel: "self", type: Self.geoJSON),
                OGCDocuments.link("\(collection)/items/\(URLQuery.escape(id))?f=html", rel: "alternate", type: "text/html"),
                OGCDocuments.link(collection, rel: "collection", type: Self.json),
            ].joined(separator: ",") + "]"
            return layer.encoded.feature(i, extra: stats?.members(of: id), links: links)
        }
    }

    /// Answers from the response cache when it can: public bodies are kept under a key of
    /// everything that determines their bytes (layer and data version, audience, query, base
    /// URL), so a repeated request costs a lookup and a matching `If-None-Match` a 304.
    private func respond(_ request: Request, _ context: AppRequestContext, layer: PublishedLayer, query: FeatureQuery, resource: String,
                         build: (FeatureStatistics?) throws -> String) async throws -> Response {
        let audience = Self.audience(context)
        let view = try statistics.view(layer: layer.info.layer, kind: query.kind, basis: query.basis, end: query.windowEnd, audience: audience,
                                       dataVersion: context.dataVersion)
        // The publication (or, live, the data version and the day the windows end) belongs in the key and the ETag.
        let key = VersionedKey(layer: layer.info.layer, layerVersion: layer.info.version, numbers: view.numbers, day: view.request.end,
                               selector: .features(resource: resource, audience: audience, query: query.canonical, base: base(request)))
        let contentType = query.format == .html ? Self.html : Self.geoJSON
        if audience == .public, let hit = cache.get(key) {
            return Conditional.response(request, body: hit.body, contentType: hit.contentType, etag: hit.etag, cacheControl: Conditional.publicCaching,
                                        compressing: cache)
        }
        let etag = Conditional.etag(key.text)
        if audience == .public, Conditional.matches(request, etag: etag) {
            return Conditional.response(request, body: ByteBuffer(), contentType: contentType, etag: etag, cacheControl: Conditional.publicCaching)
        }
        let stats = try await statistics.features(layer, view: view, audience: audience)
        let buffer = ByteBuffer(string: try build(stats))
        if !stats.isPrivate { cache.put(key, .init(body: buffer, contentType: contentType, etag: etag)) }
        return Conditional.response(request, body: buffer, contentType: contentType, etag: etag,
                                    cacheControl: stats.isPrivate ? Conditional.privateCaching : Conditional.publicCaching, compressing: cache)
    }

    static func audience(_ context: AppRequestContext) -> Audience {
        StatisticsService.audience(context.account?.role)
    }

    private func published(_ context: AppRequestContext) throws -> PublishedLayer {
        let name = try context.parameters.require("layer")
        guard let layer = catalog.snapshot()[name] else { throw APIError.notFound("no collection \"\(name)\"") }
        return layer
    }

    private func sortedLayers() -> [PublishedLayer] {
        catalog.snapshot().values.sorted { $0.info.layer < $1.info.layer }
    }

    /// Documents that change only with the layer set.
    private func fixed(_ request: Request, _ text: String, type: String) throws -> Response {
        let etag = Conditional.etag(text)
        return Conditional.response(request, body: ByteBuffer(string: text), contentType: type, etag: etag, cacheControl: Conditional.publicCaching,
                                    compressing: cache)
    }

    private func page(_ html: String) -> Response {
        Response(status: .ok, headers: [.contentType: Self.html, .cacheControl: Conditional.publicCaching], body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
