/// What a map's colours mean: class ranges and colours plus the suppressed and no-data swatches.
/// TileJSON carries it and `LegendRenderer` draws it.
public struct Legend: Hashable, Sendable, Encodable {
    /// One class: values `min ≤ v < max` (the last class includes its max). Open ends carry
    /// the data's extremes, or nil when no value lies there.
    public struct Entry: Hashable, Sendable, Encodable {
        /// Lowest value of the class (inclusive); nil when unknown.
        public let min: Double?
        /// Upper bound (exclusive, the largest value for the last class); nil when unknown.
        public let max: Double?
        /// Colour drawn.
        public let color: TileColor
    }

    /// A swatch that is not a class.
    public struct Swatch: Hashable, Sendable, Encodable {
        /// Text shown next to the swatch.
        public let label: String
        public let color: TileColor
        /// `"hatch"` when drawn as hatching over `color`, otherwise `"fill"`.
        public let pattern: String
        /// Hatch line colour (hatch swatches only).
        public let line: TileColor?
    }

    /// Classes from low to high.
    public let classes: [Entry]
    /// Look of suppressed values.
    public let suppressed: Swatch
    /// Look of areas without data.
    public let noData: Swatch

    /// The legend of a style for breaks computed from the values `range` spans. The breaks
    /// must number at most one less than the style's class colours.
    public init(style: TileStyle, breaks: [Double], range: ClosedRange<Double>?) {
        let colors = style.classColors.prefix(breaks.count + 1)
        self.classes = colors.indices.map { k in
            // Open ends take the data's extremes when the data reaches past the outer breaks.
            Entry(min: k == 0 ? range.flatMap { breaks.isEmpty || $0.lowerBound < breaks[0] ? $0.lowerBound : nil } : breaks[k - 1],
                  max: k == breaks.count ? range.flatMap { breaks.isEmpty || $0.upperBound >= breaks[k - 1] ? $0.upperBound : nil } : breaks[k],
                  color: colors[k])
        }
        switch style.suppressed {
        case .hatch(let line, let background, _):
            self.suppressed = Swatch(label: "suppressed", color: background, pattern: "hatch", line: line)
        case .fill(let c):
            self.suppressed = Swatch(label: "suppressed", color: c, pattern: "fill", line: nil)
        }
        self.noData = Swatch(label: "no data", color: style.noData, pattern: "fill", line: nil)
    }
}
