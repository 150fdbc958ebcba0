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

    /// Stages the first version of a layer that does not exist yet; nil, writing nothing, when
    /// the layer exists. Of several processes starting on an empty store together (each
    /// importing the demo layers), exactly one stages each layer.
    func stageNewLayer(_ layer: LayerImport) async throws -> LayerVersionInfo?

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

    /// Stages and publishes a new version of a layer.
    @discardableResult
    public func importLayer(_ layer: LayerImport) async throws -> LayerVersionInfo {
        let info = try await stage(layer)
        try await publish(layer: info.layer, version: info.version)
        return info
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
