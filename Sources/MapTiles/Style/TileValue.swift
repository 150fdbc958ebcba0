/// What a tile shows for one area.
public enum TileValue: Sendable, Hashable {
    /// A published number, drawn in its class colour.
    case value(Double)
    /// A number withheld by disclosure control: drawn with the suppressed style, never as a class.
    case suppressed
    /// No number for the area (distinct from zero, which is a value).
    case noData
}
