import CCairo
import Foundation

extension TileRenderer {
    /// Fills the current path with the suppressed style and clears the path.
    ///
    /// Hatching is a repeating pixel-aligned pattern anchored to world pixels, so stripes
    /// continue across tile edges and add only two colours (no anti-aliased blends) to a tile.
    func fillSuppressed(_ cr: OpaquePointer, _ suppressed: TileStyle.Suppressed, frame: TileFrame, scale: TileScale) {
        switch suppressed {
        case .fill(let c):
            setSource(cr, c)
            cairo_fill(cr)
        case .hatch(let line, let background, let spacing):
            let side = max(spacing, 2) * scale.rawValue
            let tile = TileCanvas(width: side, height: side)
            setSource(tile.context, background)
            cairo_paint(tile.context)
            setSource(tile.context, line)
            for i in 0..<side {
                cairo_rectangle(tile.context, Double(i), Double(side - 1 - i), 1, 1)
            }
            cairo_fill(tile.context)
            cairo_surface_flush(tile.surface)
            // create_for_surface returns a new pattern we own (it references the surface, so the
            // canvas may go away after the fill); destroyed right after use.
            let pattern = cairo_pattern_create_for_surface(tile.surface)!
            defer { cairo_pattern_destroy(pattern) }
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
            // Pattern space = world pixels: shift by the frame origin modulo the period.
            var m = cairo_matrix_t()
            let px = fmod(frame.originX * frame.pixelsPerUnit, Double(side))
            let py = fmod(frame.originY * frame.pixelsPerUnit, Double(side))
            cairo_matrix_init_translate(&m, px.rounded(), py.rounded())
            cairo_pattern_set_matrix(pattern, &m)
            cairo_set_source(cr, pattern)
            cairo_fill(cr)
        }
    }
}
