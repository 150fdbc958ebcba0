import ArgumentParser
import Foundation
import GeoCore
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

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard LayerName.isValid(layer) else { throw ValidationError(LayerName.rule) }
        if let kind, LayerGeometryKind(rawValue: kind) == nil { throw ValidationError("--kind must be areas or points") }
    }

    func run() async throws {
        let file = try AreaFile.read(path: self.file, idField: idField, nameField: nameField, kind: kind.flatMap(LayerGeometryKind.init))
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
        let db = try await store.open()
        let (info, moved) = try await LayerReassignment.importLayer(file.layerImport(name: layer), into: db)
        print("layer \(info.layer) version \(info.version): \(info.featureCount) \(info.kind == .points ? "points" : "areas") published"
              + (info.kind == .areas ? "; \(moved) reports changed area" : ""))
    }
}

/// Layer names appear in URLs; they are kept to a safe alphabet.
enum LayerName {
    static let rule = "a layer name is 1-64 letters, digits, '-' or '_'"

    static func isValid(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 64 && s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }
}
