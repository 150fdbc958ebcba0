import Foundation

/// Persistence of area layers and their versions.
///
/// Concurrency contract: `stage` writes a whole version or nothing, invisible to readers until
/// `publish`. `publish` makes the version current, re-assigns reports (when given a resolver),
/// changes their counters and bumps the data version in one transaction, so no reader ever sees
/// reports of one layer version counted against another. Two publications of the same layer
/// must serialise (the SQLite backend gets this from its single writer; a backend with several
/// writers locks the layer's row).
public protocol AreaStore: Sendable {
    /// Every layer with its versions.
    func layers() async throws -> [LayerSummary]

    /// Writes a new, unpublished version of a layer (creating the layer if needed) in one
    /// transaction. Readers keep seeing the published version.
    func stage(_ layer: LayerImport) async throws -> LayerVersionInfo

    /// Stores and publishes the first version of a layer that does not exist yet, in one
    /// transaction; nil, writing nothing, when the layer exists. Of several processes starting on
    /// an empty store together (each importing the demo layers), exactly one imports each layer.
    func importNewLayer(_ layer: LayerImport) async throws -> LayerVersionInfo?

    /// Stores a new version of a layer and publishes it in one transaction (re-assigning every
    /// report with `resolve`, counters included): an import interrupted at any point leaves
    /// either nothing or the published version, never a version stored but not published.
    /// - Returns: the version and how many reports changed area.
    func importAndPublish(_ layer: LayerImport, resolve: AreaResolver?) async throws -> (info: LayerVersionInfo, moved: Int)

    /// Makes a staged version the one readers see and bumps the data version, in one
    /// transaction; with `resolve`, every report is re-assigned to the new version's areas in the
    /// same transaction (counters included).
    /// - Returns: how many reports changed area.
    @discardableResult
    func publish(layer: String, version: Int, resolve: AreaResolver?) async throws -> Int

    /// The features of one version of a layer, in ascending id order.
    func areas(layer: String, version: Int) async throws -> [StoredArea]
}

extension AreaStore {
    /// Publishes a staged version without re-assigning reports (point layers, first imports).
    public func publish(layer: String, version: Int) async throws {
        try await publish(layer: layer, version: version, resolve: nil)
    }

    /// Stores and publishes a new version of a layer in one transaction, re-assigning nothing.
    @discardableResult
    public func importLayer(_ layer: LayerImport) async throws -> LayerVersionInfo {
        try await importAndPublish(layer, resolve: nil).info
    }

    /// The published version of a layer and its features.
    public func publishedAreas(layer: String) async throws -> (LayerVersionInfo, [StoredArea]) {
        guard let summary = try await layers().first(where: { $0.name == layer }) else { throw StorageError.unknownLayer(layer) }
        guard let v = summary.publishedVersion, let info = summary.versions.first(where: { $0.version == v }) else {
            throw StorageError.unknownLayer(layer)
        }
        return (info, try await areas(layer: layer, version: v))
    }
}
