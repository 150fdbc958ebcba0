import CCairo

extension TileRenderer {
    /// Largest label half-width looked for outside the frame, in pixels of a 256 px tile: labels
    /// whose anchor lies this close outside are drawn too, so a label cut by a tile edge is
    /// completed by the neighbouring tile at the same world position.
    static let labelReach = 96.0

    /// Draws area names at their interior points, dark text on a light halo.
    func drawLabels(_ canvas: TileCanvas, layer: TileLayer, painting: TilePainting, frame: TileFrame, scale: TileScale) {
        let cr = canvas.context
        let reach = frame.unitBounds(marginPixels: Self.labelReach * Double(scale.rawValue))
        let size = 11.0 * Double(scale.rawValue)
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for part in layer.areas(touching: reach) {
            let anchor = layer.labelPoint(ofArea: part.area)
            let p = frame.pixel(unitX: anchor.x + part.shift, unitY: anchor.y)
            guard p.x >= -Self.labelReach * Double(scale.rawValue), p.y >= -size,
                  p.x <= Double(frame.width) + Self.labelReach * Double(scale.rawValue), p.y <= Double(frame.height) + size else { continue }
            let text = layer.labels[part.area]
            var extents = cairo_text_extents_t()
            // cairo_text_extents and cairo_text_path only read the C string for the call.
            text.withCString { cairo_text_extents(cr, $0, &extents) }
            cairo_new_path(cr)
            cairo_move_to(cr, p.x - extents.width / 2 - extents.x_bearing, p.y - extents.height / 2 - extents.y_bearing)
            text.withCString { cairo_text_path(cr, $0) }
            setSource(cr, TileColor(red: 255, green: 255, blue: 255, alpha: 204))
            cairo_set_line_width(cr, 2.5 * Double(scale.rawValue))
            cairo_stroke_preserve(cr)
            setSource(cr, painting.style.labelColor)
            cairo_fill(cr)
        }
    }
}
