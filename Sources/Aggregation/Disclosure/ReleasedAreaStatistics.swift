import DomainKernel

/// The numbers of one area (or the layer total) that may be shown to an audience.
public struct ReleasedAreaStatistics: Sendable, Hashable {
    /// Verified reports per window.
    public var counts: WindowValues<Released<Int>>
    /// Verified reports in the window of the same length just before (no entry for `all`).
    public var previous: WindowValues<Released<Int>>
    /// `counts − previous`, shown only when both are (no entry for `all`).
    public var change: WindowValues<Released<Int>>
    /// Reports per 1,000 of the denominator, shown only when the count is; nil without a positive denominator.
    public var ratePer1000: WindowValues<Released<Double>>?
    /// Pending reports per window, for the verifier audience only; nil otherwise.
    public var pending: WindowValues<Int>?
    /// Verified reports per breakdown group per window.
    public var groups: [String: WindowValues<Released<Int>>]

    /// Creates released numbers.
    public init(counts: WindowValues<Released<Int>>, previous: WindowValues<Released<Int>>, change: WindowValues<Released<Int>>,
                ratePer1000: WindowValues<Released<Double>>?, pending: WindowValues<Int>?, groups: [String: WindowValues<Released<Int>>]) {
        self.counts = counts
        self.previous = previous
        self.change = change
        self.ratePer1000 = ratePer1000
        self.pending = pending
        self.groups = groups
    }

    /// Dotted names of every suppressed field (`counts.7d`, `groups.faculty.28d`, …), sorted:
    /// the `suppressed` marker serializers put next to the `null`s.
    public var suppressedFields: [String] {
        var names: [String] = []
        func collect<V>(_ prefix: String, _ values: WindowValues<Released<V>>?) {
            for (window, value) in values ?? [:] where value.isSuppressed { names.append("\(prefix).\(window.rawValue)") }
        }
        collect("counts", counts)
        collect("previous", previous)
        collect("change", change)
        collect("ratePer1000", ratePer1000)
        for (group, values) in groups { collect("groups.\(group)", values) }
        return names.sorted()
    }
}

extension ReleasedAreaStatistics: Encodable {
    private enum CodingKeys: String, CodingKey { case counts, previous, change, ratePer1000, pending, groups, suppressed }

    /// `{"counts":{"7d":3,"14d":null,…},…,"suppressed":["counts.14d",…]}`; window keys are the
    /// raw values, `ratePer1000` and `pending` are left out when absent.
    public func encode(to encoder: any Encoder) throws {
        func byName<V>(_ values: WindowValues<V>) -> [String: V] {
            Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) })
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(byName(counts), forKey: .counts)
        try container.encode(byName(previous), forKey: .previous)
        try container.encode(byName(change), forKey: .change)
        try container.encodeIfPresent(ratePer1000.map(byName), forKey: .ratePer1000)
        try container.encodeIfPresent(pending.map(byName), forKey: .pending)
        try container.encode(groups.mapValues(byName), forKey: .groups)
        try container.encode(suppressedFields, forKey: .suppressed)
    }
}
