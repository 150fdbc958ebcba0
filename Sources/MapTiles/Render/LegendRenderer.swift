import CCairo
import Foundation

/// Draws a legend as a small PNG: one swatch and range per class, then the suppressed and
/// no-data swatches, on a light background so it reads over any base map.
public struct LegendRenderer: Sendable {
    /// Pixel density of the image.
    public var scale: TileScale
    /// Encoder of the PNG (legends carry text, so they often take the quantised or RGBA path).
    public var encoder: PNGEncoder

    /// Creates a legend renderer.
    public init(scale: TileScale = .x1, encoder: PNGEncoder = PNGEncoder()) {
        self.scale = scale
        self.encoder = encoder
    }

    /// Row height, swatch size and image width in pixels at scale 1.
    static let row = 18.0, swatchWidth = 22.0, swatchHeight = 12.0, width = 180.0, pad = 6.0

    /// The legend of a painting as a PNG.
    public func png(_ legend: Legend, style: TileStyle) -> [UInt8] {
        draw(legend, style: style).png(encoder)
    }

    /// Draws the legend.
    public func draw(_ legend: Legend, style: TileStyle) -> TileCanvas {
        let s = Double(scale.rawValue)
        let rows = legend.classes.count + 2
        let canvas = TileCanvas(width: Int(Self.width * s), height: Int((Double(rows) * Self.row + 2 * Self.pad) * s))
        let cr = canvas.context
        let renderer = TileRenderer()
        cairo_scale(cr, s, s)
        renderer.setSource(cr, TileColor(red: 255, green: 255, blue: 255, alpha: 230))
        cairo_paint(cr)
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 11)
        cairo_set_line_width(cr, 1)

        func swatch(_ i: Int) {
            cairo_rectangle(cr, Self.pad + 0.5, Self.pad + Double(i) * Self.row + 3.5, Self.swatchWidth, Self.swatchHeight)
        }
        func text(_ i: Int, _ t: String) {
            renderer.setSource(cr, TileColor(rgb: 0x252525))
            cairo_move_to(cr, Self.pad + Self.swatchWidth + 8, Self.pad + Double(i) * Self.row + 13)
            // cairo_show_text only reads the C string for the call.
            t.withCString { cairo_show_text(cr, $0) }
        }
        func outline() {
            renderer.setSource(cr, style.outline)
            cairo_stroke(cr)
        }

        for (i, entry) in legend.classes.enumerated() {
            swatch(i)
            renderer.setSource(cr, entry.color)
            cairo_fill_preserve(cr)
            outline()
            text(i, Self.range(entry))
        }
        let k = legend.classes.count
        swatch(k)
        cairo_save(cr)
        cairo_identity_matrix(cr)  // hatch pattern is in device pixels
        renderer.fillSuppressed(cr, style.suppressed,
                                frame: TileFrame(zoom: 0, originX: 0, originY: 0, width: canvas.width, height: canvas.height, pixelsPerUnit: 1),
                                scale: scale)
        cairo_restore(cr)
        swatch(k)
        outline()
        text(k, legend.suppressed.label)
        swatch(k + 1)
        renderer.setSource(cr, legend.noData.color)
        cairo_fill_preserve(cr)
        outline()
        text(k + 1, legend.noData.label)
        return canvas
    }

    /// `min – max` of a class, with open ends written as `< max` or `≥ min`.
    static func range(_ e: Legend.Entry) -> String {
        switch (e.min, e.max) {
        case let (lo?, hi?): return "\(number(lo)) – \(number(hi))"
        case let (nil, hi?): return "< \(number(hi))"
        case let (lo?, nil): return "≥ \(number(lo))"
        case (nil, nil): return "all"
        }
    }

    static func number(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        return String(format: "%.3g", v)
    }
}
