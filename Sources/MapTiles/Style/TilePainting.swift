/// The class of every area of a layer for one data version and style, and the legend.
///
/// Quantile breaks depend on all values, so classes are resolved once per data version, not per
/// tile; a tile then only looks up a byte per area.
public struct TilePainting: Sendable {
    /// Marks an area whose value is suppressed in `classes`.
    static let suppressedClass: UInt8 = 254
    /// Marks an area without data in `classes`.
    static let noDataClass: UInt8 = 255

    /// Version of the data the values come from (part of cache keys and tile URLs).
    public let valuesVersion: String
    /// Style the classes were made for.
    public let style: TileStyle
    /// `style.fingerprint`, computed once: every tile's cache key needs it.
    public let styleFingerprint: String
    /// What the colours mean, for TileJSON and the legend PNG.
    public let legend: Legend
    /// Class by area ordinal, or one of the two markers.
    let classes: [UInt8]

    /// Classifies values given by area ordinal (missing trailing ordinals have no data).
    public init(values: [TileValue], areaCount: Int, style: TileStyle, valuesVersion: String) {
        var numbers: [Double] = []
        // A non-finite number cannot be classed; it is drawn as no data.
        for v in values { if case .value(let x) = v, x.isFinite { numbers.append(x) } }
        // A ramp has at most nine colours: breaks beyond the colours are dropped.
        let breaks = Array(style.classification.breaks(for: numbers).prefix(style.classColors.count - 1))
        let range = numbers.min().flatMap { lo in numbers.max().map { lo...$0 } }
        self.valuesVersion = valuesVersion
        self.style = style
        self.styleFingerprint = style.fingerprint
        self.legend = Legend(style: style, breaks: breaks, range: range)
        self.classes = (0..<areaCount).map { i in
            guard i < values.count else { return Self.noDataClass }
            switch values[i] {
            case .value(let x) where x.isFinite: return UInt8(Classification.classIndex(of: x, breaks: breaks))
            case .value: return Self.noDataClass
            case .suppressed: return Self.suppressedClass
            case .noData: return Self.noDataClass
            }
        }
    }

    /// Classifies values given by area id; areas without an entry have no data, ids not in the
    /// layer are ignored.
    public init(layer: TileLayer, values: [String: TileValue], style: TileStyle, valuesVersion: String) {
        self.init(values: values, areaCount: layer.areaCount, ordinal: layer.ordinal(of:), style: style, valuesVersion: valuesVersion)
    }

    /// Classifies values given by area id, placed by `ordinal` among `areaCount` areas: for a
    /// caller that has the layer's ordinals without its tile geometry (TileJSON, legends).
    public init(values: [String: TileValue], areaCount: Int, ordinal: (String) -> Int?, style: TileStyle, valuesVersion: String) {
        var byOrdinal = [TileValue](repeating: .noData, count: areaCount)
        for (id, v) in values { if let i = ordinal(id) { byOrdinal[i] = v } }
        self.init(values: byOrdinal, areaCount: areaCount, style: style, valuesVersion: valuesVersion)
    }

    /// Class of an area (0-based), or nil when suppressed or without data.
    public func classIndex(ofArea i: Int) -> Int? {
        let c = classes[i]
        return c >= Self.suppressedClass ? nil : Int(c)
    }
}
