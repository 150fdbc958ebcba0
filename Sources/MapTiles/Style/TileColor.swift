/// A straight (not premultiplied) 8-bit RGBA colour.
public struct TileColor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) – 255 (opaque).
    public var alpha: UInt8

    /// Creates a colour from its channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Creates a colour from `0xRRGGBB`, opaque.
    public init(rgb: UInt32) {
        self.init(red: UInt8(rgb >> 16 & 0xff), green: UInt8(rgb >> 8 & 0xff), blue: UInt8(rgb & 0xff))
    }

    /// Parses `#rrggbb` or `#rrggbbaa`; nil for anything else.
    public init?(hex: String) {
        guard hex.hasPrefix("#"), hex.count == 7 || hex.count == 9, let v = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        if hex.count == 7 { self.init(rgb: v) } else {
            self.init(red: UInt8(v >> 24), green: UInt8(v >> 16 & 0xff), blue: UInt8(v >> 8 & 0xff), alpha: UInt8(v & 0xff))
        }
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque (the form TileJSON legends carry).
    public var description: String {
        func h(_ v: UInt8) -> String { let s = String(v, radix: 16); return s.count == 1 ? "0" + s : s }
        return "#" + h(red) + h(green) + h(blue) + (alpha == 255 ? "" : h(alpha))
    }

    /// Fully transparent.
    public static let transparent = TileColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Encodes as its hex string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    /// Decodes from a hex string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let s = try c.decode(String.self)
        guard let v = TileColor(hex: s) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a #rrggbb[aa] colour")
        }
        self = v
    }
}
