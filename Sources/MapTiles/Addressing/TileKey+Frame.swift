import GeoCore

extension TileKey {
    /// The tile's drawing frame at a scale.
    public func frame(scale: TileScale = .x1) -> TileFrame { TileFrame(self, scale: scale) }

    /// West, south, east, north in degrees, grown by `margin` pixels of a tile at `scale` on
    /// every side (a renderer's query box).
    public func bounds(marginPixels margin: Double, scale: TileScale = .x1) -> BoundingBox {
        frame(scale: scale).bounds(marginPixels: margin)
    }
}
