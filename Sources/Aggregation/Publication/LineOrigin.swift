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

    /// By layer; only layers with a published version.
    public let entries: [String: Entry]

    public init(entries: [String: Entry]) {
        self.entries = entries
    }

    /// The origin of a line opened for `areaClass` while the area layers were at `geography`
    /// (version 0: a layer without a published version, which holds no report).
    public init(areaClass: AreaClass, geography: [String: Int]) {
        var entries: [String: Entry] = [:]
        for (layer, version) in geography where version > 0 {
            entries[layer] = Entry(version: version, areaID: areaClass.area(in: layer))
        }
        self.entries = entries
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
        AreaClass(entries.compactMap { layer, entry in entry.areaID.map { AreaRef(layer: layer, areaID: $0) } }).key
    }

    /// The layers' versions of the origin, layer by layer in name order.
    public var geographyKey: String {
        entries.keys.sorted().map { "\($0)\(AreaClass.fieldSeparator)\(entries[$0]!.version)" }.joined(separator: String(AreaClass.pairSeparator))
    }

    /// The area the line was opened in, in the first layer (by name) where it had one: what a
    /// layer new to the line is asked about.
    var reference: VersionedArea? {
        for layer in entries.keys.sorted() {
            if let entry = entries[layer], let area = entry.areaID { return VersionedArea(layer: layer, version: entry.version, areaID: area) }
        }
        return nil
    }
}
