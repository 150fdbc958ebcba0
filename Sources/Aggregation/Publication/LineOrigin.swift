import DomainKernel

/// Where a ledger line was opened: for each area layer published then, its version and the
/// line's area in it (nil: the line's reports lay outside every area of that layer).
///
/// A line's class is always decided again from its origin and the maps, never from the class a
/// previous change gave it: an edge moved and moved back, or a merge and its undo, put every line
/// back exactly where it was opened, whatever happened in between (see `LineLineage`).
public struct LineOrigin: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public let version: Int
        public let areaID: String?

        public init(version: Int, areaID: String?) {
            self.version = version
            self.areaID = areaID
        }
    }

    /// By layer in name order; only layers with a published version. An array, not a
    /// dictionary: a publication compares every line with the one it read (4,000 lines at
    /// 4,000 cells), and comparing two small arrays costs a fraction of comparing two tables.
    public let layers: [(layer: String, entry: Entry)]

    public init(entries: [String: Entry]) {
        layers = entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// By layer.
    public var entries: [String: Entry] {
        Dictionary(uniqueKeysWithValues: layers.map { ($0.layer, $0.entry) })
    }

    /// The origin's entry for `layer`; nil when the layer had no published version then.
    public func entry(for layer: String) -> Entry? {
        layers.first { $0.layer == layer }?.entry
    }

    public static func == (lhs: LineOrigin, rhs: LineOrigin) -> Bool {
        lhs.layers.count == rhs.layers.count && zip(lhs.layers, rhs.layers).allSatisfy { $0.layer == $1.layer && $0.entry == $1.entry }
    }

    public func hash(into hasher: inout Hasher) {
        for (layer, entry) in layers {
            hasher.combine(layer)
            hasher.combine(entry)
        }
    }

    /// The origin of a line opened for `areaClass` while the area layers were at `geography`
    /// (version 0: a layer without a published version, which holds no report).
    public init(areaClass: AreaClass, geography: [String: Int]) {
        let areas = areaClass.areas
        layers = geography.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { layer, version in
            (layer, Entry(version: version, areaID: areas.first { $0.layer == layer }?.areaID))
        }
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

    /// The areas of the origin as a class key, as `AreaClass` joins them.
    public var classKey: String {
        AreaClass(layers.compactMap { layer, entry in entry.areaID.map { AreaRef(layer: layer, areaID: $0) } }).key
    }

    /// The layers' versions of the origin, layer by layer in name order.
    public var geographyKey: String {
        layers.map { "\($0.layer)\(AreaClass.fieldSeparator)\($0.entry.version)" }.joined(separator: String(AreaClass.pairSeparator))
    }

    /// The area the line was opened in, in the first layer (by name) where it had one: what a
    /// layer new to the line is asked about.
    var reference: VersionedArea? {
        for (layer, entry) in layers {
            if let area = entry.areaID { return VersionedArea(layer: layer, version: entry.version, areaID: area) }
        }
        return nil
    }
}
