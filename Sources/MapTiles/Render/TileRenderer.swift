import CCairo

/// Draws the areas of a layer that touch a tile as a choropleth, with cairo.
///
/// Every area is filled with the colour of its class, suppressed areas with the suppressed
/// style and areas without data with the no-data colour (transparent by default); then the
/// outlines of all of them are stroked as one path, so a border shared by two areas is drawn
/// once, and a tile edge is drawn the same from both sides. Drawing happens in the pixel frame
/// of the tile with the surface as the clip; geometry comes from the layer's per-zoom
/// simplification, which is the same for every tile of a zoom, so neighbouring tiles meet
/// without seams.
///
/// Rendering blocks for up to milliseconds: call it from a thread pool, not an event loop.
public struct TileRenderer: Sendable {
    /// Encoder of the PNGs.
    public var encoder: PNGEncoder

    /// Creates a renderer.
    public init(encoder: PNGEncoder = PNGEncoder()) {
        self.encoder = encoder
    }

    /// One tile as a PNG: the shared empty tile when no area touches it.
    public func png(layer: TileLayer, painting: TilePainting, key: TileKey, scale: TileScale = .x1) -> [UInt8] {
        guard let canvas = draw(layer: layer, painting: painting, frame: key.frame(scale: scale), scale: scale),
              !canvas.isBlank else {
            return PNGEncoder.emptyTile(scale)
        }
        return canvas.png(encoder)
    }

    /// Draws a frame; nil when no area touches it (the frame is transparent).
    /// - Parameter scale: pixel density; line widths, hatching and labels scale with it.
    public func draw(layer: TileLayer, painting: TilePainting, frame: TileFrame, scale: TileScale = .x1) -> TileCanvas? {
        let style = painting.style
        let lineWidth = style.outlineWidth * Double(scale.rawValue)
        let margin = lineWidth / 2 + 1
        let parts = layer.areas(touching: frame.unitBounds(marginPixels: margin))
        guard !parts.isEmpty else { return nil }

        let canvas = TileCanvas(width: frame.width, height: frame.height)
        let cr = canvas.context
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        // Fills without anti-aliasing: every area's edge is stroked afterwards with an
        // anti-aliased outline that covers it, so the fills' own edge blending is not seen (the
        // tiles look the same), and cairo fills without it in two thirds of the time: uncached
        // z12 tiles of 4,000 cells went from 361 to 488 a second, z14 from 1,290 to 1,631.
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
        let geometry = layer.geometry(zoom: frame.zoom, scale: scale)
        let colors = style.classColors

        // One fill per class: fewer cairo calls, and areas of one class that share a border
        // leave no anti-aliasing hairline between them.
        var byClass = [[WorldCopy]](repeating: [], count: 256)
        for part in parts { byClass[Int(painting.classes[part.area])].append(part) }
        for (code, members) in byClass.enumerated() where !members.isEmpty {
            let code = UInt8(code)
            if code == TilePainting.noDataClass {
                guard style.noData.alpha > 0 else { continue }
                setSource(cr, style.noData)
            } else if code == TilePainting.suppressedClass {
                continue  // drawn below with its pattern
            } else {
                setSource(cr, colors[min(Int(code), colors.count - 1)])
            }
            addPaths(cr, members, geometry, frame, layer: layer, margin: margin)
            cairo_fill(cr)
        }
        let suppressed = byClass[Int(TilePainting.suppressedClass)]
        if !suppressed.isEmpty {
            addPaths(cr, suppressed, geometry, frame, layer: layer, margin: margin)
            fillSuppressed(cr, style.suppressed, frame: frame, scale: scale)
        }

        // Outlines with cairo's fast anti-aliasing (coverage from a 4×4 grid of samples a
        // pixel, where the default takes a far finer one): for outlines of a pixel or less the
        // two look alike side by side at 8×, and z12 and z14 tiles of 4,000 cells keep their
        // mean luminance within 0.05 of 255 levels (0.1–0.8 % of pixels differ by more than
        // 32). Those z12 tiles drew at 1,270–1,310 a second instead of 715–730, and 19 %
        // smaller: fewer shades of the outline colour make a shorter palette.
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
        if lineWidth > 0 && style.outline.alpha > 0 {
            addOutlines(cr, parts, geometry, frame, layer: layer, margin: margin, smallest: Self.smallestOutlined * Double(scale.rawValue))
            setSource(cr, style.outline)
            cairo_set_line_width(cr, lineWidth)
            // Round caps close the joints where arcs meet at junctions.
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            // Bevel joins: at outline widths of a pixel or less no join shape is visible, and
            // bevels are the cheapest for cairo's stroker (measured against round and miter).
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
            cairo_stroke(cr)
        }

        // Labels with the default anti-aliasing, as text wants it.
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT)
        if style.labels && frame.zoom >= style.labelMinZoom {
            drawLabels(canvas, layer: layer, painting: painting, frame: frame, scale: scale)
        }
        return canvas
    }

    func setSource(_ cr: OpaquePointer, _ c: TileColor) {
        cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, Double(c.alpha) / 255)
    }

    /// Whether a box, relative to an origin, reaches past `limit` (in unit coordinates).
    static func reachesTooFar(_ box: UnitRect, _ ox: Double, _ oy: Double, _ limit: Double) -> Bool {
        box.minX - ox < -limit || box.maxX - ox > limit || box.minY - oy < -limit || box.maxY - oy > limit
    }

    /// Areas narrower and lower than this many pixels (at scale 1) bring no outline. Outlines of
    /// areas a pixel or two across cover them: a z10 tile of a 300,000-area layer was one grey of
    /// outlines with no class colour to be seen, and stroking them took a third of its drawing.
    /// A border such an area shares with a larger one is still drawn, by the larger one; the
    /// choice depends on the zoom and the area alone, so neighbouring tiles make the same one.
    static let smallestOutlined = 2.0

    /// Appends the outlines of the areas to the current path: each shared border (arc) once,
    /// whichever of its areas brought it, and the rings of areas that outline themselves.
    /// Areas under `smallest` pixels in both directions bring none.
    func addOutlines(_ cr: OpaquePointer, _ parts: [WorldCopy], _ g: ZoomGeometry, _ frame: TileFrame, layer: TileLayer, margin: Double,
                     smallest: Double) {
        let s = frame.pixelsPerUnit
        let limit = RingClipper.safeLimit / s
        var arcs: [Int64] = []
        var own: [WorldCopy] = []
        for part in parts {
            let box = layer.index.boxes[part.area]
            if (box.maxX - box.minX) * s < smallest && (box.maxY - box.minY) * s < smallest { continue }
            if g.ownOutline[part.area] || Self.reachesTooFar(layer.index.boxes[part.area], frame.originX - part.shift, frame.originY, limit) {
                own.append(part)
                continue
            }
            // Key: arc number and world copy (shift −1, 0, 1 stored as 0, 1, 2).
            let copy = Int64(part.shift + 1)
            for k in Int(g.outlineStarts[part.area])..<Int(g.outlineStarts[part.area + 1]) {
                arcs.append(Int64(g.outlineArcs[k]) << 2 | copy)
            }
        }
        arcs.sort()
        g.arcCoordinates.withUnsafeBufferPointer { xy in
            var previous: Int64 = -1
            for key in arcs where key != previous {
                previous = key
                let a = Int(key >> 2)
                // As in `addPaths`: the world pixel less the frame's first pixel.
                let ox = (frame.originX - Double(key & 3) + 1) * s, oy = frame.originY * s
                let start = Int(g.arcStarts[a]), end = Int(g.arcStarts[a + 1])
                cairo_move_to(cr, xy[2 * start] * s - ox, xy[2 * start + 1] * s - oy)
                for k in (start + 1)..<end { cairo_line_to(cr, xy[2 * k] * s - ox, xy[2 * k + 1] * s - oy) }
                if end - start > 2 && xy[2 * start] == xy[2 * (end - 1)] && xy[2 * start + 1] == xy[2 * (end - 1) + 1] {
                    cairo_close_path(cr)
                }
            }
        }
        addPaths(cr, own, g, frame, layer: layer, margin: margin)
    }

    /// Appends the rings of the areas, in pixel coordinates, to the current path. Areas reaching
    /// farther from the frame than cairo's fixed-point range are clipped first.
    func addPaths(_ cr: OpaquePointer, _ parts: [WorldCopy], _ g: ZoomGeometry, _ frame: TileFrame, layer: TileLayer, margin: Double) {
        let s = frame.pixelsPerUnit
        let limit = RingClipper.safeLimit / s
        g.coordinates.withUnsafeBufferPointer { xy in
            for part in parts {
                // Pixel coordinates as the point's pixel in the whole world less the frame's
                // first pixel: the scale is a power of two and a tile starts on a whole pixel,
                // so both products are exact and so is their difference near the tile (Sterbenz).
                // Neighbouring tiles then place a vertex on exactly the same pixel position, and
                // fills drawn without anti-aliasing cover the same pixels on both sides of a seam.
                let ox = (frame.originX - part.shift) * s
                let oy = frame.originY * s
                let rings = Int(g.areaStarts[part.area])..<Int(g.areaStarts[part.area + 1])
                if Self.reachesTooFar(layer.index.boxes[part.area], frame.originX - part.shift, frame.originY, limit) {
                    let clipper = RingClipper(width: frame.width, height: frame.height, margin: margin + 2)
                    for r in rings {
                        var ring: [Double] = []
                        for k in Int(g.ringStarts[r])..<Int(g.ringStarts[r + 1]) {
                            ring.append(xy[2 * k] * s - ox); ring.append(xy[2 * k + 1] * s - oy)
                        }
                        let clipped = clipper.clip(ring)
                        guard clipped.count >= 6 else { continue }
                        cairo_move_to(cr, clipped[0], clipped[1])
                        for k in 1..<(clipped.count / 2) { cairo_line_to(cr, clipped[2 * k], clipped[2 * k + 1]) }
                        cairo_close_path(cr)
                    }
                    continue
                }
                for r in rings {
                    let start = Int(g.ringStarts[r]), end = Int(g.ringStarts[r + 1])
                    cairo_move_to(cr, xy[2 * start] * s - ox, xy[2 * start + 1] * s - oy)
                    for k in (start + 1)..<end {
                        cairo_line_to(cr, xy[2 * k] * s - ox, xy[2 * k + 1] * s - oy)
                    }
                    cairo_close_path(cr)
                }
            }
        }
    }
}
