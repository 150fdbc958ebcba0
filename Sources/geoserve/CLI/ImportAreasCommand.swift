import GeoCore
import ArgumentParser
import Foundation
import GeoserveApp
import MapTiles
import Storage

struct ImportAreasCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-areas",
        abstract: "Import a GeoJSON FeatureCollection as a new version of a layer.",
        discussion: """
        Every polygon is validated with GEOS and repaired where possible; the report lists each \
        repaired or rejected feature. When any feature is rejected nothing is imported and the exit \
        code is 1, unless --skip-invalid is given. The new version is published in the same \
        transaction that stores it.
        """
    )

    @Argument(help: ArgumentHelp("GeoJSON FeatureCollection file.", valueName: "file.geojson"))
    var file: String

    @Option(help: "Layer name (letters, digits, '-' and '_').")
    var layer: String

    @Option(name: .customLong("id-field"), help: "Property holding the area id (default: the feature's id member, else an id property).")
    var idField: String?

    @Option(name: .customLong("name-field"), help: "Property holding the display name (default: name).")
    var nameField: String?

    @Option(help: "Layer kind: areas or points (default: points when every geometry is a Point).")
    var kind: String?

    @Flag(name: .customLong("skip-invalid"), help: "Import the valid features even when some are rejected.")
    var skipInvalid = false

    @Option(name: .customLong("max-area-vertices"), help: "Positions one feature may have over all its rings (default 100000).")
    var maxAreaVertices: Int?

    @Option(name: .customLong("max-area-parts"), help: "Polygons one multipolygon feature may have (default 1000).")
    var maxAreaParts: Int?

    @Option(name: .customLong("max-area-property-kb"), help: "KiB of properties one feature may carry, name included (default 64).")
    var maxAreaPropertyKB: Int?

    @Option(name: .customLong("max-layer-features"), help: "Features one layer may have (default 1000000).")
    var maxLayerFeatures: Int?

    @Option(name: .customLong("max-layer-vertices"), help: "Positions one layer may have over all its features (default 20000000).")
    var maxLayerVertices: Int?

    /// The limits, defaults overridden by the flags given.
    var limits: AreaLimits {
        var l = AreaLimits()
        if let maxAreaVertices { l.vertices = maxAreaVertices }
        if let maxAreaParts { l.parts = maxAreaParts }
        if let maxAreaPropertyKB { l.propertyBytes = maxAreaPropertyKB << 10 }
        if let maxLayerFeatures { l.features = maxLayerFeatures }
        if let maxLayerVertices { l.layerVertices = maxLayerVertices }
        return l
    }

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard LayerName.isValid(layer) else { throw ValidationError(LayerName.rule) }
        if let kind, LayerGeometryKind(rawValue: kind) == nil { throw ValidationError("--kind must be areas or points") }
        for (name, value) in [("--max-area-vertices", maxAreaVertices), ("--max-area-parts", maxAreaParts), ("--max-area-property-kb", maxAreaPropertyKB),
                              ("--max-layer-features", maxLayerFeatures), ("--max-layer-vertices", maxLayerVertices)] {
            if let value, value < 1 { throw ValidationError("\(name) must be at least 1") }
        }
    }

    func run() async throws {
        let indexFiles = try store.indexFiles()
        let (db, info, moved) = try await importFile(indexFiles: indexFiles)
        print("layer \(info.layer) version \(info.version): \(info.featureCount) \(info.kind == .points ? "points" : "areas") published"
              + (info.kind == .areas ? "; \(moved) reports changed area" : ""))
        // The new version read back as a server reads it, and its area index and tile topology
        // saved: the first start after an import loads them instead of building them (4.3 s of a
        // 100,000-cell layer's first start went to the index, 1.5 s of a 300,000-area layer's
        // first tile to the topology). Built after the file and the other layers are let go,
        // so the import's peak is the index build's own.
        if let saved = try await LayerCatalog.saveIndex(info, from: db, files: indexFiles, topologyFiles: indexFiles.map(TopologyFiles.init(beside:))) {
            print("area index \(saved.index.rawValue) for the next start: \(saved.indexFile.path)")
            if let topology = saved.topology, let file = topology.file {
                print("tile topology \(topology.source.rawValue) for the next start: \(file.path)")
            }
        }
    }

    /// Reads and checks the file, then opens the store and imports it (a file refused leaves the
    /// store untouched); what it read is freed when this returns.
    private func importFile(indexFiles: AreaIndexFiles?) async throws -> (any GeoserveStore, LayerVersionInfo, Int) {
        let file = try AreaFile.read(path: self.file, idField: idField, nameField: nameField, kind: kind.flatMap(LayerGeometryKind.init), limits: limits)
        let report = file.result.report
        for line in report.lines { printError(line) }
        printError("\(report.features.count) features: \(report.validCount) valid, \(report.repairedCount) repaired, \(report.rejectedCount) rejected")
        if report.rejectedCount > 0 && !skipInvalid {
            printError("nothing imported: \(report.rejectedCount) feature(s) rejected (use --skip-invalid to import the rest)")
            throw ExitCode(1)
        }
        guard !file.result.features.isEmpty else {
            printError("nothing imported: no usable features")
            throw ExitCode(1)
        }
        let db = try await store.open(bulk: true)
        let catalog = LayerCatalog(indexFiles: indexFiles)
        try await catalog.refresh(from: db)
        let (info, moved) = try await LayerReassignment.importLayer(file.layerImport(name: layer), into: db, others: catalog.snapshot())
        return (db, info, moved)
    }
}
