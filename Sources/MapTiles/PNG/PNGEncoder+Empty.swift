extension PNGEncoder {
    /// The PNG of a fully transparent tile: encoded once per scale and shared, since most tiles
    /// around a layer are empty and need neither drawing nor encoding.
    public static func emptyTile(_ scale: TileScale) -> [UInt8] {
        scale == .x1 ? emptyTile256 : emptyTile512
    }

    private static let emptyTile256 = emptyPNG(side: 256)
    private static let emptyTile512 = emptyPNG(side: 512)

    private static func emptyPNG(side: Int) -> [UInt8] {
        let image = IndexedImage(palette: [0], indices: [UInt8](repeating: 0, count: side * side))
        return indexedPNG(image, width: side, height: side, level: 9, strategy: Strategy.standard.rawValue)
    }
}
