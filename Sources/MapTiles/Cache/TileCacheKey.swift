/// Everything an encoded tile depends on. Carrying the layer and data versions means a new
/// version never reads an old tile: caches need no invalidation, old entries just age out.
public struct TileCacheKey: Hashable, Sendable {
    /// Layer id.
    public let layer: String
    /// Version of the layer geometry.
    public let layerVersion: String
    /// Version of the values drawn.
    public let valuesVersion: String
    /// `TileStyle.fingerprint` of the style drawn.
    public let style: String
    /// Tile address.
    public let tile: TileKey
    /// Pixel density.
    public let scale: TileScale

    /// Creates a key.
    public init(layer: String, layerVersion: String, valuesVersion: String, style: String, tile: TileKey, scale: TileScale) {
        self.layer = layer
        self.layerVersion = layerVersion
        self.valuesVersion = valuesVersion
        self.style = style
        self.tile = tile
        self.scale = scale
    }

    /// The key of a tile of a layer drawn with a painting.
    public init(layer: TileLayer, painting: TilePainting, tile: TileKey, scale: TileScale) {
        self.init(layer: layer.id, layerVersion: layer.version, valuesVersion: painting.valuesVersion,
                  style: painting.styleFingerprint, tile: tile, scale: scale)
    }
}
