import DomainKernel

/// A set of group indices for merge preferences: a bit mask for the first 64 (every real
/// breakdown has a handful), so the common case never allocates; larger indices spill to a set.
struct GroupSet {
    private var low: UInt64 = 0
    private var high: Set<Int> = []

    init(_ group: Int) {
        if group < 64 { low = 1 << UInt64(group) } else { high = [group] }
    }

    /// The single group in the set, or nil when it holds several.
    var single: Int? {
        if high.isEmpty { return low.nonzeroBitCount == 1 ? low.trailingZeroBitCount : nil }
        return low == 0 && high.count == 1 ? high.first : nil
    }

    func isDisjoint(with other: GroupSet) -> Bool {
        low & other.low == 0 && (high.isEmpty || other.high.isEmpty || high.isDisjoint(with: other.high))
    }

    mutating func formUnion(_ other: GroupSet) {
        low |= other.low
        if !other.high.isEmpty { high.formUnion(other.high) }
    }
}
