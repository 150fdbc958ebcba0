import GeoCore
import Aggregation
import ArgumentParser
import Foundation
import GeoserveApp
import MapTiles
import Storage

struct TilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Work with map tiles.",
        subcommands: [TilesSeedCommand.self]
    )
}

struct TilesSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Pre-render a layer's tiles of the current public numbers into a folder ({z}/{x}/{y}.png).",
        discussion: """
        Renders every tile that covers the layer's bounds at each zoom, with the same numbers and \
        style as /tiles/{layer}/{z}/{x}/{y}.png. Tiles no area touches are skipped. The folder can \
        be served by any static file server or read by GDAL and QGIS as an XYZ source.
        """
    )

    @Option(help: "Area layer.") var layer: String
    @Option(help: ArgumentHelp("Zoom range, e.g. 12-17, or one zoom.", valueName: "from-to")) var zooms: String
    @Option(help: ArgumentHelp("Output folder.", valueName: "folder")) var out: String
    @Option(help: "Statistic, as the tile URL's metric parameter.") var metric: String = "verified_14d"
    @Option(help: "Also render 512 px @2x tiles.") var retina = false
    @OptionGroup var store: StoreOptions

    func zoomRange() throws -> ClosedRange<Int> {
        let parts = zooms.split(separator: "-").map { Int($0) }
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0 != nil }), let lo = parts.first!, let hi = parts.last!,
              lo <= hi, lo >= 0, hi <= TileKey.maxZoom else {
            throw ValidationError("--zooms must be a zoom or a range like 12-17 within 0-\(TileKey.maxZoom)")
        }
        return lo...hi
    }

    func run() async throws {
        let range = try zoomRange()
        guard QueryLimits.tileMetrics.contains(metric) else { throw ValidationError("--metric must be one of \(QueryLimits.tileMetrics.joined(separator: ", "))") }
        let opened = try await store.opened(reading: true), db = opened.store
        let indexFiles = try store.indexFiles()
        let catalog = LayerCatalog(indexFiles: indexFiles)
        try await catalog.refresh(from: db)
        guard let published = catalog.snapshot()[layer], published.areaIndex != nil else { throw CommandFailure("no published area layer \"\(layer)\"") }
        var query = TileQuery()
        query.metric = metric
        let publications = try await PublicationBook.loaded(from: db)
        let statistics = StatisticsService(counters: db, publications: publications, policy: .default, timeZone: opened.timeZone)
        let service = TileService(statistics: statistics, cacheBytes: 0, topologyFiles: indexFiles.map(TopologyFiles.init(beside:)))
        let tileLayer = try await service.tileLayer(published)
        let painting = try await service.painting(published, query: query, dataVersion: try await db.dataVersion())
        guard let bounds = tileLayer.bounds else { throw CommandFailure("layer \"\(layer)\" has no area to draw") }
        var keys: [TileKey] = []
        for z in range {
            let nw = try TileKey.containing(lon: bounds.west, lat: bounds.north, zoom: z)
            let se = try TileKey.containing(lon: bounds.east, lat: bounds.south, zoom: z)
            for x in nw.x...se.x { for y in nw.y...se.y { keys.append(try TileKey(z: z, x: x, y: y)) } }
        }
        let renderer = TileRenderer()
        var progress = ProgressLine(label: "tiles")
        var written = 0
        for (i, key) in keys.enumerated() {
            for scale in retina ? [TileScale.x1, .x2] : [.x1] {
                guard let canvas = renderer.draw(layer: tileLayer, painting: painting, frame: key.frame(scale: scale), scale: scale), !canvas.isBlank else { continue }
                let folder = URL(fileURLWithPath: out).appendingPathComponent("\(key.z)/\(key.x)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(canvas.png(renderer.encoder)).write(to: folder.appendingPathComponent("\(key.y)\(scale.suffix).png"), options: .atomic)
                written += 1
            }
            progress.update(i + 1, keys.count)
        }
        print("\(written) tiles written to \(out) (\(keys.count) addresses over zooms \(range.lowerBound)-\(range.upperBound), data version \(painting.valuesVersion))")
    }
}
