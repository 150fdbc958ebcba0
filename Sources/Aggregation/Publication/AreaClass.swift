import DomainKernel

/// The areas a report lies in, one per area layer: the finest unit every layer's public numbers
/// are sums of. Publication plans these classes rather than each layer's areas, so that a zone's
/// number minus the numbers of its halls is itself a sum of planned classes and never exposes a
/// hall's unpublished reports.
///
/// Stored as one text key (layer, then area id, pairs sorted by layer) with ASCII record and unit
/// separators, which area ids from GeoJSON properties do not contain in practice and which the
/// key never needs to escape: a key is only ever split by the code that joined it.
public struct AreaClass: Hashable, Sendable, Comparable {
    public let key: String

    static let pairSeparator: Character = "\u{1E}"
    static let fieldSeparator: Character = "\u{1F}"

    /// A class from its stored key.
    public init(key: String) {
        self.key = key
    }

    /// The class of a report placed in `areas` (at most one per layer; order does not matter).
    public init(_ areas: [AreaRef]) {
        key = areas.sorted { $0.layer < $1.layer }
            .map { "\($0.layer)\(Self.fieldSeparator)\($0.areaID)" }
            .joined(separator: String(Self.pairSeparator))
    }

    /// The placements the class stands for, by layer.
    public var areas: [AreaRef] {
        key.split(separator: Self.pairSeparator).compactMap { pair in
            let parts = pair.split(separator: Self.fieldSeparator, maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 ? AreaRef(layer: String(parts[0]), areaID: String(parts[1])) : nil
        }
    }

    /// The class's area in `layer`, nil when its reports lie outside every area of that layer.
    public func area(in layer: String) -> String? {
        areas.first { $0.layer == layer }?.areaID
    }

    public static func < (lhs: AreaClass, rhs: AreaClass) -> Bool { lhs.key < rhs.key }
}
