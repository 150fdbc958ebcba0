import DomainKernel

/// The released numbers of every area of a layer, by id: held area by area, or, for a release
/// with nothing suppressed, released from the raw numbers when an area is asked for.
///
/// The verifiers' live view (k = 1) is the second kind. Held, its 300,000 released areas took
/// 184 MB of fresh pages and most of the first live view's second after a start; a page asks
/// for ten of them, and releasing one from its raw numbers takes about a microsecond.
public struct ReleasedAreas: Sendable {
    private enum Storage: Sendable {
        case held(AreaMap<ReleasedAreaStatistics>)
        case unsuppressed(AreaMap<AreaStatistics>, UnsuppressedRelease)
    }

    private let storage: Storage

    /// Areas released ahead, each held.
    public init(_ held: AreaMap<ReleasedAreaStatistics>) {
        storage = .held(held)
    }

    /// Areas released from `raw` as they are asked for, with nothing suppressed.
    init(unsuppressed raw: AreaMap<AreaStatistics>, _ release: UnsuppressedRelease) {
        storage = .unsuppressed(raw, release)
    }

    /// The released numbers of an area (the fallback for an id not held); nil for an id outside.
    public subscript(id: String) -> ReleasedAreaStatistics? {
        switch storage {
        case .held(let map): map[id]
        case .unsuppressed(let raw, let release): raw[id].map(release.release)
        }
    }

    /// The numbers of every area not held (a published release holds only its areas with
    /// reports); nil when every area is held.
    public var fallback: ReleasedAreaStatistics? {
        switch storage {
        case .held(let map): map.fallback
        case .unsuppressed: nil
        }
    }

    /// Areas held.
    public var count: Int {
        switch storage {
        case .held(let map): map.count
        case .unsuppressed(let raw, _): raw.count
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// Every id held, in no particular order.
    public var keys: [String] {
        switch storage {
        case .held(let map): map.keys
        case .unsuppressed(let raw, _): raw.keys
        }
    }

    /// Every value held, in no particular order.
    public var values: [ReleasedAreaStatistics] { map(\.value) }

    /// Whether any number of any area is suppressed: never, where nothing is.
    public var hasSuppressed: Bool {
        switch storage {
        case .held(let map): map.anyValue { !$0.suppressedFields.isEmpty }
        case .unsuppressed: false
        }
    }

    /// About the bytes held, for byte-bounded caches (see `ReleasedLayerStatistics` and
    /// `LiveStatistics`); `groups`: the breakdown groups each area holds.
    func approximateBytes(groups: Int) -> Int {
        switch storage {
        case .held(let map):
            let perGroup = groups * (MemoryLayout<String>.stride + MemoryLayout<WindowValues<Released<Int>>>.stride)
            return (map.count + 1) * ((MemoryLayout<String>.stride + MemoryLayout<ReleasedAreaStatistics>.stride) * 7 / 4 + perGroup)
        case .unsuppressed(let raw, _):
            let perGroup = MemoryLayout<String>.stride + MemoryLayout<SegmentCounts>.stride
            return (raw.count + 1) * ((MemoryLayout<String>.stride + MemoryLayout<AreaStatistics>.stride) * 7 / 4 + 64 + (groups + 1) * perGroup)
        }
    }
}

extension ReleasedAreas: Sequence {
    public typealias Element = (key: String, value: ReleasedAreaStatistics)

    /// Every area held with its released numbers, in no particular order.
    public func makeIterator() -> AnyIterator<Element> {
        switch storage {
        case .held(let map):
            let inner = map.makeIterator()
            return AnyIterator { inner.next() }
        case .unsuppressed(let raw, let release):
            let inner = raw.makeIterator()
            return AnyIterator { inner.next().map { ($0.key, release.release($0.value)) } }
        }
    }

    public var underestimatedCount: Int { count }
}

extension ReleasedAreas: Equatable {
    /// The same areas with the same released numbers, however each is kept.
    public static func == (lhs: ReleasedAreas, rhs: ReleasedAreas) -> Bool {
        lhs.count == rhs.count && lhs.fallback == rhs.fallback && lhs.allSatisfy { rhs[$0.key] == $0.value }
    }
}

extension ReleasedAreas: Encodable {
    /// An object keyed by area id, as a dictionary encodes: the areas held (a release with a
    /// fallback cannot list the ids it stands for, and refuses).
    public func encode(to encoder: any Encoder) throws {
        try AreaIDKey.encode(self, hasFallback: fallback != nil, to: encoder)
    }
}
