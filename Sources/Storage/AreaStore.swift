import Foundation
import GeoCore

/// What a layer holds.
public enum LayerKind: String, Codable, Hashable, Sendable {
    /// Polygons and multipolygons: residence halls, zones, community areas.
    case areas
    /// Points: testing sites and other places for nearest-feature queries.
    case points
}

/// One feature of a layer as stored: id, display name, public properties and geometry.
public struct StoredArea: Hashable, Sendable {
    public let id: String
    public let name: String?
    /// Public properties (e.g. `capacity`); never personal data.
    public let properties: [String: JSONValue]
    /// Polygon / MultiPolygon for area layers, Point for point layers.
    public let geometry: Geometry

    public init(id: String, name: String?, properties: [String: JSONValue], geometry: Geometry) {
        self.id = id
        self.name = name
        self.properties = properties
        self.geometry = geometry
    }
}

/// A version of a layer.
public struct LayerVersionInfo: Hashable, Sendable, Codable {
    public let layer: String
    public let version: Int
    public let kind: LayerKind
    public let createdAt: Date
    public let source: String?
    public let featureCount: Int
    public let repairedCount: Int
    public let rejectedCount: Int

    public init(layer: String, version: Int, kind: LayerKind, createdAt: Date, source: String?,
                featureCount: Int, repairedCount: Int, rejectedCount: Int) {
        self.layer = layer
        self.version = version
        self.kind = kind
        self.createdAt = createdAt
        self.source = source
        self.featureCount = featureCount
        self.repairedCount = repairedCount
        self.rejectedCount = rejectedCount
    }
}

/// A layer with its published version and the versions it has.
public struct LayerSummary: Hashable, Sendable, Codable {
    public let name: String
    public let kind: LayerKind
    /// The version readers see; nil until the first version is published.
    public let publishedVersion: Int?
    public let versions: [LayerVersionInfo]
}

/// A new version of a layer, ready to be stored.
public struct LayerImport: Sendable {
    public let layer: String
    public let kind: LayerKind
    public let source: String?
    public let areas: [StoredArea]
    public let repairedCount: Int
    public let rejectedCount: Int

    public init(layer: String, kind: LayerKind, source: String?, areas: [StoredArea], repairedCount: Int = 0, rejectedCount: Int = 0) {
        self.layer = layer
        self.kind = kind
        self.source = source
        self.areas = areas
        self.repairedCount = repairedCount
        self.rejectedCount = rejectedCount
    }
}

/// Persistence of area layers. SQLite implements it for the embedded default and PostgreSQL for
/// shared deployments; callers see no SQL.
public protocol AreaStore: Sendable {
    /// Applies the migrations this program knows that the database lacks.
    /// - Returns: the schema version after migrating.
    @discardableResult
    func migrate() async throws -> Int

    /// Succeeds when the database answers.
    func ping() async throws

    /// Every layer with its versions.
    func layers() async throws -> [LayerSummary]

    /// Writes a new, unpublished version of a layer (creating the layer if needed) in one
    /// transaction. Readers keep seeing the published version.
    func stage(_ layer: LayerImport) async throws -> LayerVersionInfo

    /// Makes a staged version the one readers see, and bumps the data version, in one
    /// transaction.
    func publish(layer: String, version: Int) async throws

    /// The features of one version of a layer, in ascending id order.
    func areas(layer: String, version: Int) async throws -> [StoredArea]

    /// The data version: increases with every change that can alter a public number.
    func dataVersion() async throws -> Int64
}

extension AreaStore {
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
