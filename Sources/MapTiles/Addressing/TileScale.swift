/// Pixel density of a tile: the standard 256 px tile or the `@2x` 512 px tile for high-density
/// screens. Both cover the same ground; `@2x` draws it with twice the pixels.
public enum TileScale: Int, Hashable, Sendable, CaseIterable, Codable {
    case x1 = 1
    case x2 = 2

    /// Side of the tile in pixels (256 or 512).
    public var pixels: Int { 256 * rawValue }

    /// The URL suffix map clients use for the scale (`""` or `"@2x"`).
    public var suffix: String { self == .x1 ? "" : "@2x" }
}
