import CCairo

/// An ARGB32 cairo image surface and its drawing context, owned together and destroyed once.
///
/// Not `Sendable`: a cairo context must not be used by two threads at once. Each render makes
/// its own canvas and drops it when the PNG is written.
public final class TileCanvas {
    let surface: OpaquePointer
    let context: OpaquePointer
    /// Size in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// A transparent canvas.
    init(width: Int, height: Int) {
        // cairo_image_surface_create always returns a surface we own (an error surface when it
        // failed, e.g. out of memory); cairo_create likewise returns a context we own that holds
        // its own reference to the surface.
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            fatalError("cairo_image_surface_create \(width)×\(height) failed (out of memory)")
        }
        self.surface = surface
        self.context = cairo_create(surface)!
        self.width = width
        self.height = height
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Calls `body` with the finished pixels: premultiplied ARGB32, `stride` bytes per row.
    public func withPixels<R>(_ body: (UnsafeRawBufferPointer, _ stride: Int) throws -> R) rethrows -> R {
        // Flush pending drawing; get_data returns memory owned by the surface, valid while it lives.
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        return try body(UnsafeRawBufferPointer(start: data, count: stride * height), stride)
    }

    /// The premultiplied ARGB value of one pixel (`0xAARRGGBB`).
    public func premultipliedPixel(x: Int, y: Int) -> UInt32 {
        withPixels { p, stride in p.load(fromByteOffset: y * stride + 4 * x, as: UInt32.self) }
    }

    /// The straight RGBA colour of one pixel.
    public func color(x: Int, y: Int) -> TileColor {
        let (r, g, b, a) = PNGEncoder.straight(premultipliedPixel(x: x, y: y))
        return TileColor(red: r, green: g, blue: b, alpha: a)
    }

    /// Whether every pixel is fully transparent (nothing was drawn inside).
    public var isBlank: Bool {
        withPixels { p, stride in
            for y in 0..<height {
                let row = p.baseAddress!.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width where row[x] != 0 { return false }
            }
            return true
        }
    }

    /// Encodes the canvas as PNG.
    public func png(_ encoder: PNGEncoder = PNGEncoder()) -> [UInt8] {
        withPixels { encoder.encode(premultipliedARGB: $0, width: width, height: height, stride: $1) }
    }
}
