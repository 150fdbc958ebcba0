import GeoCore
import Foundation
import Logging
import Storage

/// The demo campus that ships in `data/`: imported on first start when the store has no layers.
enum DemoData {
    /// Layer name and file, in import order.
    static let layers: [(name: String, file: String)] = [
        ("halls", "halls.geojson"),
        ("zones", "zones.geojson"),
        ("testing-sites", "testing-sites.geojson"),
    ]

    /// Imports the demo layers when the store is empty and the folder exists.
    /// - Returns: the number of layers imported.
    @discardableResult
    static func importIfEmpty(into store: any AreaStore, from folder: String, logger: Logger) async throws -> Int {
        guard try await store.layers().isEmpty else { return 0 }
        var imported = 0
        for layer in layers {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(layer.file).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let file = try AreaFile.read(path: path, idField: nil, nameField: nil, showProgress: false)
            guard file.result.report.rejectedCount == 0 else {
                throw AreaFileProblem(description: "demo layer \(path) has rejected features: " + file.result.report.lines.joined(separator: "; "))
            }
            // Another process starting on the same empty store may import it first: then this
            // one leaves the layer alone.
            guard let info = try await store.importNewLayer(file.layerImport(name: layer.name)) else { continue }
            logger.info("imported demo layer", metadata: ["layer": "\(info.layer)", "features": .stringConvertible(info.featureCount)])
            imported += 1
        }
        return imported
    }
}
