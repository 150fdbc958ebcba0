import Foundation

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
