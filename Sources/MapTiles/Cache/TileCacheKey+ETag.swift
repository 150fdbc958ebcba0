extension TileCacheKey {
    /// A strong ETag for the tile: everything the bytes depend on besides the URL's own address,
    /// so it changes exactly when the picture can change and agrees across replicas.
    public var etag: String {
        "\"\(layer)-\(layerVersion)-\(valuesVersion)-\(style)-\(tile.z)-\(tile.x)-\(tile.y)\(scale.suffix)\""
    }
}
