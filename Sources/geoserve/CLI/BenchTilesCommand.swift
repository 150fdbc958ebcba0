import GeoCore
import ArgumentParser
import Foundation
import GeoserveApp
import MapTiles
import Support

struct BenchTilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Render tile lists of a layer as a choropleth, uncached, on one thread; print one JSON line per list.",
        discussion: """
        Values come from a numeric feature property (--value), classed into 7 YlOrRd quantiles \
        with 0.5 px grey outlines. Each list file holds "z x y" lines. Fields: file, zoom, tiles, \
        prepare_seconds (projection and simplification of that zoom, once), tiles_per_second, \
        render_ms and encode_ms per tile, bytes_mean, bytes_median and empty tiles (medians over \
        --repeat passes, after one warm-up pass).
        """
    )

    @Option(help: ArgumentHelp("Area layer (GeoJSON).", valueName: "areas.geojson"))
    var areas: String

    @Option(help: "Numeric property that colours the areas.")
    var value: String = "count"

    @Option(help: "Timed passes over each list.")
    var `repeat`: Int = 3

    @Option(help: ArgumentHelp("Also write each tile of the lists as FOLDER/z/x/y.png, to look at what was measured.", valueName: "folder"))
    var write: String?

    @Argument(help: "Tile lists.")
    var lists: [String]

    func run() async throws {
        let file = try AreaFile.read(path: areas, idField: nil, nameField: nil, showProgress: false)
        let clock = ContinuousClock()
        let buildStart = clock.now
        let layer = TileLayer(id: "bench", version: "1", areas: file.result.features.map { IndexedArea(id: $0.id, polygons: $0.geometry.polygons) })
        let build = (clock.now - buildStart).seconds
        var values: [String: TileValue] = [:]
        for f in file.result.features {
            if case .number(let n)? = f.properties[value] { values[f.id] = .value(n) } else { values[f.id] = .noData }
        }
        let painting = TilePainting(layer: layer, values: values, style: TileStyle(), valuesVersion: "bench")
        let renderer = TileRenderer()
        for list in lists {
            let keys = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").compactMap { line -> TileKey? in
                let n = line.split(separator: " ").compactMap { Int($0) }
                return n.count == 3 ? try TileKey(z: n[0], x: n[1], y: n[2]) : nil
            }
            guard let zoom = keys.first?.z else { continue }
            let prepareStart = clock.now
            layer.prepare(zooms: zoom...zoom)
            let prepare = (clock.now - prepareStart).seconds
            _ = renderer.renderBatch(layer: layer, painting: painting, keys: keys)
            var reports: [TileBatchReport] = []
            for _ in 0..<max(1, `repeat`) { reports.append(renderer.renderBatch(layer: layer, painting: painting, keys: keys)) }
            reports.sort { $0.tilesPerSecond < $1.tilesPerSecond }
            let r = reports[reports.count / 2]
            let sizes = r.bytes.sorted()
            let line: [String: Any] = [
                "file": URL(fileURLWithPath: list).lastPathComponent, "zoom": zoom, "tiles": r.tiles, "layer_build_seconds": build,
                "prepare_seconds": prepare, "tiles_per_second": r.tilesPerSecond,
                "render_ms": r.renderSeconds * 1000 / Double(max(r.tiles, 1)), "encode_ms": r.encodeSeconds * 1000 / Double(max(r.tiles, 1)),
                "bytes_mean": r.meanBytes, "bytes_median": sizes.isEmpty ? 0 : sizes[sizes.count / 2], "empty": r.emptyTiles,
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self))
            if let write {
                for key in keys {
                    let folder = URL(fileURLWithPath: write).appendingPathComponent("\(key.z)/\(key.x)")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try Data(renderer.png(layer: layer, painting: painting, key: key)).write(to: folder.appendingPathComponent("\(key.y).png"))
                }
            }
        }
    }
}

