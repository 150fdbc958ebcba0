/// A sequential ColorBrewer colour scheme (Cynthia Brewer, colorbrewer2.org), light to dark,
/// for 3 to 9 classes. The colours are the published tables, so maps match what readers know
/// from other tools.
public enum ColorRamp: String, Hashable, Sendable, CaseIterable, Codable {
    case ylOrRd = "YlOrRd"
    case blues = "Blues"
    case greens = "Greens"
    case purples = "Purples"

    /// Number of classes the published tables cover.
    public static let classRange = 3...9

    /// The colours for a number of classes (clamped to 3...9).
    public func colors(classes: Int) -> [TileColor] {
        let n = min(max(classes, Self.classRange.lowerBound), Self.classRange.upperBound)
        return Self.tables[self]![n - Self.classRange.lowerBound]
    }

    /// Every ramp's colours, converted once: renderers ask for them on every tile.
    private static let tables: [ColorRamp: [[TileColor]]] = Dictionary(uniqueKeysWithValues: allCases.map { ramp in
        (ramp, published(ramp).map { $0.map(TileColor.init(rgb:)) })
    })

    private static func published(_ ramp: ColorRamp) -> [[UInt32]] {
        switch ramp {
        case .ylOrRd: return [
            [0xffeda0, 0xfeb24c, 0xf03b20],
            [0xffffb2, 0xfecc5c, 0xfd8d3c, 0xe31a1c],
            [0xffffb2, 0xfecc5c, 0xfd8d3c, 0xf03b20, 0xbd0026],
            [0xffffb2, 0xfed976, 0xfeb24c, 0xfd8d3c, 0xf03b20, 0xbd0026],
            [0xffffb2, 0xfed976, 0xfeb24c, 0xfd8d3c, 0xfc4e2a, 0xe31a1c, 0xb10026],
            [0xffffcc, 0xffeda0, 0xfed976, 0xfeb24c, 0xfd8d3c, 0xfc4e2a, 0xe31a1c, 0xb10026],
            [0xffffcc, 0xffeda0, 0xfed976, 0xfeb24c, 0xfd8d3c, 0xfc4e2a, 0xe31a1c, 0xbd0026, 0x800026],
        ]
        case .blues: return [
            [0xdeebf7, 0x9ecae1, 0x3182bd],
            [0xeff3ff, 0xbdd7e7, 0x6baed6, 0x2171b5],
            [0xeff3ff, 0xbdd7e7, 0x6baed6, 0x3182bd, 0x08519c],
            [0xeff3ff, 0xc6dbef, 0x9ecae1, 0x6baed6, 0x3182bd, 0x08519c],
            [0xeff3ff, 0xc6dbef, 0x9ecae1, 0x6baed6, 0x4292c6, 0x2171b5, 0x084594],
            [0xf7fbff, 0xdeebf7, 0xc6dbef, 0x9ecae1, 0x6baed6, 0x4292c6, 0x2171b5, 0x084594],
            [0xf7fbff, 0xdeebf7, 0xc6dbef, 0x9ecae1, 0x6baed6, 0x4292c6, 0x2171b5, 0x08519c, 0x08306b],
        ]
        case .greens: return [
            [0xe5f5e0, 0xa1d99b, 0x31a354],
            [0xedf8e9, 0xbae4b3, 0x74c476, 0x238b45],
            [0xedf8e9, 0xbae4b3, 0x74c476, 0x31a354, 0x006d2c],
            [0xedf8e9, 0xc7e9c0, 0xa1d99b, 0x74c476, 0x31a354, 0x006d2c],
            [0xedf8e9, 0xc7e9c0, 0xa1d99b, 0x74c476, 0x41ab5d, 0x238b45, 0x005a32],
            [0xf7fcf5, 0xe5f5e0, 0xc7e9c0, 0xa1d99b, 0x74c476, 0x41ab5d, 0x238b45, 0x005a32],
            [0xf7fcf5, 0xe5f5e0, 0xc7e9c0, 0xa1d99b, 0x74c476, 0x41ab5d, 0x238b45, 0x006d2c, 0x00441b],
        ]
        case .purples: return [
            [0xefedf5, 0xbcbddc, 0x756bb1],
            [0xf2f0f7, 0xcbc9e2, 0x9e9ac8, 0x6a51a3],
            [0xf2f0f7, 0xcbc9e2, 0x9e9ac8, 0x756bb1, 0x54278f],
            [0xf2f0f7, 0xdadaeb, 0xbcbddc, 0x9e9ac8, 0x756bb1, 0x54278f],
            [0xf2f0f7, 0xdadaeb, 0xbcbddc, 0x9e9ac8, 0x807dba, 0x6a51a3, 0x4a1486],
            [0xfcfbfd, 0xefedf5, 0xdadaeb, 0xbcbddc, 0x9e9ac8, 0x807dba, 0x6a51a3, 0x4a1486],
            [0xfcfbfd, 0xefedf5, 0xdadaeb, 0xbcbddc, 0x9e9ac8, 0x807dba, 0x6a51a3, 0x54278f, 0x3f007d],
        ]
        }
    }
}
