/// A layer with its published version and the versions it has.
public struct LayerSummary: Hashable, Sendable, Codable {
    public let name: String
    public let kind: LayerKind
    /// The version readers see; nil until the first version is published.
    public let publishedVersion: Int?
    public let versions: [LayerVersionInfo]

    public init(name: String, kind: LayerKind, publishedVersion: Int?, versions: [LayerVersionInfo]) {
        self.name = name
        self.kind = kind
        self.publishedVersion = publishedVersion
        self.versions = versions
    }
}
