import GeoCore
import Foundation
import Logging
import MapTiles
import Storage
import Synchronization

/// The published layers the service answers from.
///
/// Each layer is built completely (its index made) before it replaces the previous one in a
/// single swap, so readers take a consistent snapshot and never wait for an index build.
package final class LayerCatalog: Sendable {
    private let layers = Mutex<[String: PublishedLayer]>([:])
    /// Decimal places of coordinates in GeoJSON output.
    let precision: Int
    /// Where area indexes are saved and read back; nil builds them at every load.
    let indexFiles: AreaIndexFiles?
    let logger: Logger?

    package init(precision: Int = 6, indexFiles: AreaIndexFiles? = nil, logger: Logger? = nil) {
        self.precision = precision
        self.indexFiles = indexFiles
        self.logger = logger
    }

    /// A consistent view of every published layer.
    package func snapshot() -> [String: PublishedLayer] {
        layers.withLock { $0 }
    }

    /// Loads every published layer whose version differs from the one held.
    package func refresh(from store: any AreaStore) async throws {
        let current = snapshot()
        var loaded = false
        for summary in try await store.layers() {
            guard let v = summary.publishedVersion, current[summary.name]?.info.version != v,
                  let info = summary.versions.first(where: { $0.version == v }) else { continue }
            let started = ContinuousClock.now
            let features = try await store.areas(layer: summary.name, version: v)
            let built = PublishedLayer(info: info, features: features, precision: precision, indexFiles: indexFiles)
            layers.withLock { $0[summary.name] = built }
            loaded = true
            log(built, seconds: (ContinuousClock.now - started).seconds)
        }
        if loaded { FreedMemory.handBack() }
    }

    /// What a command that publishes a layer version saved for the next start.
    package struct SavedForStart: Sendable {
        package let index: AreaIndexFiles.Source
        package let indexFile: URL
        /// Nil without a folder for it; `file` is nil for a layer too small to save.
        package let topology: TopologyFiles.Prepared?
    }

    /// Saves the area index of a layer version as a server starting on the store prepares it
    /// (`PublishedLayer.prepareIndex` over the areas read back from the store, so the file's key
    /// is the one the server looks for), and its tiles' border topology over the index's areas
    /// as `TileService` asks for it, without the rest of a served layer: what a command that
    /// publishes a version does for the next start. Nil when no file holds the index (no
    /// folder, or a layer too small to save).
    package static func saveIndex(_ info: LayerVersionInfo, from store: any AreaStore, files: AreaIndexFiles?,
                                  topologyFiles: TopologyFiles? = nil) async throws -> SavedForStart? {
        guard files != nil else { return nil }
        let areas = try await store.areas(layer: info.layer, version: info.version)
        guard let prepared = PublishedLayer.prepareIndex(info: info, features: areas, indexFiles: files), let file = prepared.file else { return nil }
        let topology = topologyFiles?.prepare(layer: info.layer, version: info.version, areas: prepared.index.areas)
        return SavedForStart(index: prepared.source, indexFile: file, topology: topology)
    }

    private func log(_ layer: PublishedLayer, seconds: Double) {
        guard let logger else { return }
        var metadata: Logger.Metadata = ["layer": "\(layer.info.layer)", "version": .stringConvertible(layer.info.version),
                                         "areas": .stringConvertible(layer.features.count), "seconds": .stringConvertible(LogDecimal(seconds, places: 3))]
        if let source = layer.indexSource { metadata["index"] = "\(source.rawValue)" }
        if let problem = layer.indexProblem {
            metadata["problem"] = "\(problem)"
            logger.warning("layer loaded; its saved area index was not used or not saved", metadata: metadata)
        } else {
            logger.info("layer loaded", metadata: metadata)
        }
    }
}
