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
