import Aggregation
import DomainKernel
import Foundation
import Hummingbird
import MapTiles
import Storage

/// `GET /tiles/{layer}/{z}/{x}/{y}.png` (and `@2x.png`), `GET /tiles/{layer}.json` (TileJSON
/// 3.0 with the legend) and `GET /tiles/{layer}/legend.png`.
///
/// Tile URLs from TileJSON carry the data version (`v=`): such a tile is immutable and cached
/// for a year, because a new data version makes a new URL. A tile asked for without `v`, or with
/// an old one, is drawn from the current numbers and must be revalidated.
struct TilesController {
    let catalog: LayerCatalog
    let tiles: TileService
    let links: LinkBase
    /// Encoded tile responses by request URI and data version: a repeated tile request skips
    /// parsing, painting and key building (every layer import bumps the data version too).
    let responses: ResponseCache

    static let immutable = "public, max-age=31536000, immutable"

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("tiles/:layer") { request, context in try await tileJSON(request, context) }
        group.get("tiles/:layer/legend.png") { request, context in try await legend(request, context) }
        group.get("tiles/:layer/:z/:x/:y") { request, context in try await tile(request, context) }
    }

    func base(_ request: Request) -> String {
        links.url(for: request)
    }

    private func areaLayer(_ name: String) throws -> PublishedLayer {
        guard let layer = catalog.snapshot()[name] else { throw APIError.notFound("no layer \"\(name)\"") }
        guard layer.areaIndex != nil else { throw APIError.notFound("layer \"\(name)\" holds points; tiles are drawn for area layers") }
        return layer
    }

    func tileJSON(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let document = try context.parameters.require("layer")
        guard document.hasSuffix(".json") else { throw APIError.notFound("no such resource: \(request.uri.path)") }
        let query = try TileQuery(request, declared: QueryParameters.tileStyle)
        let layer = try areaLayer(String(document.dropLast(5)))
        let painting = try await tiles.painting(layer, query: query, dataVersion: context.dataVersion)
        let name = URLQuery.escape(layer.info.layer)
        let url = "\(base(request))/tiles/\(name)/{z}/{x}/{y}.png?v=\(URLQuery.escape(painting.valuesVersion))&\(query.linkQuery)"
        let doc = TileJSON(name: layer.info.layer, bounds: layer.encoded.extent, painting: painting, tilesURL: url,
                           attribution: "geoserve: verified reports, disclosure-controlled")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = ByteBuffer(bytes: try encoder.encode(doc))
        return Conditional.response(request, body: body, contentType: "application/json", etag: Conditional.etag(painting.valuesVersion, url),
                                    cacheControl: Conditional.publicCaching)
    }

    func tile(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let version = context.dataVersion
        let layer = try areaLayer(try context.parameters.require("layer"))
        // Tiles draw the newest publication: only a new one (or layer version) is a new picture.
        let shown = tiles.statistics.publications.latest
        let fastKey = VersionedKey(layer: layer.info.layer, layerVersion: layer.info.version, numbers: .publication(shown?.id ?? 0),
                                   day: shown?.day ?? tiles.statistics.today, selector: .tileRequest(request.uri.description))
        if let hit = responses.get(fastKey) {
            return Conditional.response(request, body: hit.body, contentType: hit.contentType, etag: hit.etag, cacheControl: hit.cacheControl)
        }
        let (key, scale) = try Self.address(z: try context.parameters.require("z"), x: try context.parameters.require("x"),
                                            y: try context.parameters.require("y"))
        let query = try TileQuery(request)
        let tileLayer = try await tiles.tileLayer(layer)
        let painting = try await tiles.painting(layer, query: query, dataVersion: version)
        let (png, etag) = try await tiles.tile(tileLayer, painting: painting, key: key, scale: scale)
        let caching = query.version == painting.valuesVersion ? Self.immutable : Conditional.publicCaching
        let body = ByteBuffer(bytes: png)
        responses.put(fastKey, .init(body: body, contentType: "image/png", etag: etag, cacheControl: caching))
        return Conditional.response(request, body: body, contentType: "image/png", etag: etag, cacheControl: caching)
    }

    func legend(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let layer = try areaLayer(try context.parameters.require("layer"))
        let query = try TileQuery(request, declared: QueryParameters.tileStyle)
        let painting = try await tiles.painting(layer, query: query, dataVersion: context.dataVersion)
        let png = LegendRenderer().png(painting.legend, style: painting.style)
        return Conditional.response(request, body: ByteBuffer(bytes: png), contentType: "image/png",
                                    etag: Conditional.etag("legend", layer.info.layer, painting.valuesVersion, painting.styleFingerprint),
                                    cacheControl: Conditional.publicCaching)
    }

    /// `z`, `x` and `y.png` / `y@2x.png` to a tile key; 400 for anything else or out of range.
    static func address(z: String, x: String, y file: String) throws -> (TileKey, TileScale) {
        let bad = APIError(status: .badRequest, code: "bad_tile", message: "a tile address is /tiles/{layer}/{z}/{x}/{y}.png or {y}@2x.png with whole numbers")
        let scale: TileScale
        let yText: Substring
        if file.hasSuffix("@2x.png") {
            scale = .x2
            yText = file.dropLast(7)
        } else if file.hasSuffix(".png") {
            scale = .x1
            yText = file.dropLast(4)
        } else {
            throw bad
        }
        guard let zi = Int(z), let xi = Int(x), let yi = Int(yText) else { throw bad }
        do {
            return (try TileKey(z: zi, x: xi, y: yi), scale)
        } catch {
            throw APIError(status: .badRequest, code: "bad_tile", message: error.description)
        }
    }
}
