import DomainKernel

/// Counters held in memory, the same cells the store keeps in SQL: used to check the
/// incremental counters against a full recompute, and by tests.
public struct CounterTable: Equatable, Sendable {
    /// Nonzero cells only; a missing key means 0.
    public var counts: [CounterKey: Int]

    /// Creates a table from cells (zeros are dropped).
    public init(counts: [CounterKey: Int] = [:]) {
        self.counts = counts.filter { $0.value != 0 }
    }

    /// Adds a delta, dropping cells that reach 0 so equal counts mean equal tables.
    public mutating func apply(_ delta: [CounterKey: Int]) {
        for (key, change) in delta where change != 0 {
            let value = counts[key, default: 0] + change
            counts[key] = value == 0 ? nil : value
        }
    }

    /// The counters of a set of reports, built from scratch: the sum of `Counters.contributions`
    /// over the reports, counted through `Counters.recount` so strings are hashed once per value.
    public static func recompute(from reports: [ReportFacts]) -> CounterTable {
        Counters.recount(ReportColumns(reports)).table
    }

    /// Every cell where the two tables disagree (a missing cell counts as 0), in no particular order.
    public func differences(from other: CounterTable) -> [(key: CounterKey, mine: Int, theirs: Int)] {
        let keys = Set(counts.keys).union(other.counts.keys)
        return keys.compactMap { key in
            let mine = counts[key, default: 0], theirs = other.counts[key, default: 0]
            return mine == theirs ? nil : (key, mine, theirs)
        }
    }
}
