/// How a choropleth tile is drawn: ramp and classes, outlines, the suppressed and no-data looks,
/// labels. A value, so it can be hashed into cache keys and carried in TileJSON.
public struct TileStyle: Hashable, Sendable, Codable {
    /// How a value withheld by disclosure control looks. It is never a class colour, so a
    /// reader cannot mistake a hidden number for a small one.
    public enum Suppressed: Hashable, Sendable, Codable {
        /// Diagonal hatching: one-pixel lines every `spacing` pixels over a background.
        case hatch(line: TileColor, background: TileColor, spacing: Int)
        /// A flat colour.
        case fill(TileColor)
    }

    /// Colour scheme of the classes.
    public var ramp: ColorRamp
    /// How values are cut into classes (3–9 classes use the ramp's published tables).
    public var classification: Classification
    /// Outline colour (`@2x` tiles double the width).
    public var outline: TileColor
    /// Outline width in pixels of a 256 px tile; 0 draws no outlines.
    public var outlineWidth: Double
    /// Look of suppressed values.
    public var suppressed: Suppressed
    /// Fill of areas without data; transparent by default so the base map shows through.
    public var noData: TileColor
    /// Whether area labels (the area's name at a point inside it) are drawn.
    public var labels: Bool
    /// Shallowest zoom with labels.
    public var labelMinZoom: Int
    /// Label text colour (on a light halo).
    public var labelColor: TileColor

    /// Creates a style; the defaults are the house choropleth (7 YlOrRd quantile classes,
    /// 0.5 px #555555 outlines, grey hatching for suppressed values).
    public init(ramp: ColorRamp = .ylOrRd, classification: Classification = .quantiles(classes: 7),
                outline: TileColor = TileColor(rgb: 0x555555), outlineWidth: Double = 0.5,
                suppressed: Suppressed = .hatch(line: TileColor(rgb: 0x969696), background: TileColor(rgb: 0xe0e0e0), spacing: 4),
                noData: TileColor = .transparent,
                labels: Bool = false, labelMinZoom: Int = 14, labelColor: TileColor = TileColor(rgb: 0x252525)) {
        self.ramp = ramp
        self.classification = classification
        self.outline = outline
        self.outlineWidth = outlineWidth
        self.suppressed = suppressed
        self.noData = noData
        self.labels = labels
        self.labelMinZoom = labelMinZoom
        self.labelColor = labelColor
    }

    /// Colours of the classes.
    public var classColors: [TileColor] { ramp.colors(classes: classification.classCount) }
}
