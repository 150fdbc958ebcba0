/// Timings and sizes of a batch of tiles, for benchmarks.
public struct TileBatchReport: Sendable {
    /// Tiles rendered.
    public var tiles: Int = 0
    /// Tiles with nothing drawn (answered with the shared empty PNG).
    public var emptyTiles: Int = 0
    /// Seconds spent drawing (including geometry look-up) and encoding.
    public var renderSeconds: Double = 0
    /// Seconds spent encoding PNGs.
    public var encodeSeconds: Double = 0
    /// PNG size of each tile, in the order given.
    public var bytes: [Int] = []

    /// Mean PNG size.
    public var meanBytes: Double { bytes.isEmpty ? 0 : Double(bytes.reduce(0, +)) / Double(bytes.count) }
    /// Tiles per second, drawing and encoding together.
    public var tilesPerSecond: Double { tiles == 0 ? 0 : Double(tiles) / (renderSeconds + encodeSeconds) }
}

extension TileRenderer {
    /// Renders and encodes tiles one after the other on the calling thread, timing the two
    /// phases, as a benchmark does (no cache). Geometry for each zoom is built before timing.
    public func renderBatch(layer: TileLayer, painting: TilePainting, keys: [TileKey], scale: TileScale = .x1) -> TileBatchReport {
        for z in Set(keys.map(\.z)) { _ = layer.geometry(zoom: z, scale: scale) }
        var report = TileBatchReport()
        let clock = ContinuousClock()
        for key in keys {
            let t0 = clock.now
            let canvas = draw(layer: layer, painting: painting, frame: key.frame(scale: scale), scale: scale)
            let t1 = clock.now
            let png: [UInt8]
            if let canvas, !canvas.isBlank { png = canvas.png(encoder) } else { png = PNGEncoder.emptyTile(scale); report.emptyTiles += 1 }
            let t2 = clock.now
            report.tiles += 1
            report.renderSeconds += Self.seconds(t1 - t0)
            report.encodeSeconds += Self.seconds(t2 - t1)
            report.bytes.append(png.count)
        }
        return report
    }

    private static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
