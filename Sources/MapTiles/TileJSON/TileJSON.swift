import GeoCore

/// A TileJSON 3.0.0 document describing a layer's tiles for map clients
/// (https://github.com/mapbox/tilejson-spec/tree/master/3.0.0), plus the legend.
///
/// The tile URL carries the data version, so a client that fetched this document asks for tiles
/// of exactly that version, and caches keyed by URL never serve stale colours.
public struct TileJSON: Hashable, Sendable, Encodable {
    /// Spec version.
    public let tilejson = "3.0.0"
    /// Layer id.
    public var name: String
    /// URL templates with `{z}`, `{x}`, `{y}`.
    public var tiles: [String]
    /// Shallowest zoom served.
    public var minzoom: Int
    /// Deepest zoom served.
    public var maxzoom: Int
    /// West, south, east, north in degrees.
    public var bounds: [Double]
    /// Longitude, latitude, zoom of the default view.
    public var center: [Double]
    /// Source credit shown by map clients.
    public var attribution: String
    /// Version of the tiles: the data version.
    public var version: String
    /// What the colours mean (a TileJSON extension field).
    public var legend: Legend

    /// Creates the document for a layer drawn with a painting.
    /// - Parameters:
    ///   - tilesURL: the URL template, e.g. from `TileJSON.tilesURL(base:layer:valuesVersion:scale:)`.
    ///   - minzoom, maxzoom: zoom range served.
    public init(layer: TileLayer, painting: TilePainting, tilesURL: String, minzoom: Int = 0,
                maxzoom: Int = TileKey.maxZoom, attribution: String) {
        self.init(name: layer.id, bounds: layer.bounds, painting: painting, tilesURL: tilesURL, minzoom: minzoom, maxzoom: maxzoom,
                  attribution: attribution)
    }

    /// Creates the document from the layer's name and extent alone: what a client needs to know
    /// before its first tile, without the tile geometry that drawing needs (on a layer of
    /// 300,000 areas that geometry takes seconds to build, the extent nothing).
    public init(name: String, bounds: BoundingBox?, painting: TilePainting, tilesURL: String, minzoom: Int = 0,
                maxzoom: Int = TileKey.maxZoom, attribution: String) {
        let b = bounds ?? BoundingBox(west: -180, south: -WebMercator.maxLatitude, east: 180, north: WebMercator.maxLatitude)
        self.name = name
        self.tiles = [tilesURL]
        self.minzoom = minzoom
        self.maxzoom = maxzoom
        self.bounds = [b.west, b.south, b.east, b.north]
        let centerZoom = min(max(Self.zoomFitting(b), minzoom), maxzoom)
        self.center = [(b.west + b.east) / 2, (b.south + b.north) / 2, Double(centerZoom)]
        self.attribution = attribution
        self.version = painting.valuesVersion
        self.legend = painting.legend
    }

    /// `{base}/tiles/{layer}/{z}/{x}/{y}[@2x].png?v={valuesVersion}`.
    public static func tilesURL(base: String, layer: String, valuesVersion: String, scale: TileScale = .x1) -> String {
        "\(base)/tiles/\(layer)/{z}/{x}/{y}\(scale.suffix).png?v=\(valuesVersion)"
    }

    /// Deepest zoom at which the box fits in one 256 px tile's width and height, at least 0.
    static func zoomFitting(_ b: BoundingBox) -> Int {
        let nw = WebMercator.unit(lon: b.west, lat: b.north)
        let se = WebMercator.unit(lon: b.east, lat: b.south)
        let span = max(se.x - nw.x, se.y - nw.y)
        guard span > 0 else { return TileKey.maxZoom }
        var z = 0
        while z < TileKey.maxZoom && span * Double(1 << (z + 1)) <= 1 { z += 1 }
        return z
    }
}
