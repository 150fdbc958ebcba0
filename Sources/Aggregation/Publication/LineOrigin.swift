import DomainKernel

/// Where a ledger line was opened: for each area layer published then, its version and the
/// line's area in it (nil: the line's reports lay outside every area of that layer).
///
/// A line's class is always decided again from its origin and the maps, never from the class a
/// previous change gave it: an edge moved and moved back, or a merge and its undo, put every line
/// back exactly where it was opened, whatever happened in between (see `LineLineage`).
///
/// Kept as the class's key and the published layers' versions, as the store keeps it: a first
/// publication opens a line per class (4,000 at 4,000 cells) on one geography, and parsing each
/// class into entries there took a fifth of its planning; entries are read from the key when a
/// change of the maps asks for them.
public struct LineOrigin: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public let version: Int
        public let areaID: String?

        public init(version: Int, areaID: String?) {
            self.version = version
            self.areaID = areaID
        }
    }

    /// The class the line was opened for, as `AreaClass` keys it.
    public let classKey: String
    /// The layers with a published version then, in name order.
    let published: [Published]

    struct Published: Hashable, Sendable {
        let layer: String
        let version: Int
    }

    /// The origin of a line opened for `areaClass` while the area layers were at `geography`
    /// (version 0: a layer without a published version, which holds no report).
    public init(areaClass: AreaClass, geography: [String: Int]) {
        self.init(areaClass: areaClass, published: Self.published(geography))
    }

    /// The same from the published layers already in name order (`published(_:)`).
    init(areaClass: AreaClass, published: [Published]) {
        classKey = areaClass.key
        self.published = published
    }

    /// The layers of `geography` with a published version, in name order.
    static func published(_ geography: [String: Int]) -> [Published] {
        geography.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { Published(layer: $0.key, version: $0.value) }
    }

    /// The origin as the store keeps it: the class's key and the layers' versions.
    public init(classKey: String, geographyKey: String) {
        var geography: [String: Int] = [:]
        for pair in geographyKey.split(separator: AreaClass.pairSeparator) {
            let parts = pair.split(separator: AreaClass.fieldSeparator, maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, let version = Int(parts[1]) { geography[String(parts[0])] = version }
        }
        self.init(areaClass: AreaClass(key: classKey), geography: geography)
    }

    /// The layers' versions of the origin, layer by layer in name order.
    public var geographyKey: String {
        published.map { "\($0.layer)\(AreaClass.fieldSeparator)\($0.version)" }.joined(separator: String(AreaClass.pairSeparator))
    }

    /// The layers' versions of the origin.
    public var geography: [String: Int] {
        Dictionary(uniqueKeysWithValues: published.map { ($0.layer, $0.version) })
    }

    /// The origin's entry for `layer`; nil when the layer had no published version then.
    public func entry(for layer: String) -> Entry? {
        published.first { $0.layer == layer }.map { Entry(version: $0.version, areaID: AreaClass(key: classKey).area(in: layer)) }
    }

    /// The area the line was opened in, in the first layer (by name) where it had one: what a
    /// layer new to the line is asked about.
    var reference: VersionedArea? {
        let areas = AreaClass(key: classKey)
        for p in published {
            if let area = areas.area(in: p.layer) { return VersionedArea(layer: p.layer, version: p.version, areaID: area) }
        }
        return nil
    }
}
