import Aggregation
import DomainKernel
import Foundation

/// Counter changes summed over several report changes (a group commit, a re-assignment), so a
/// backend writes each touched cell once instead of once per report.
public struct CounterChanges: Sendable {
    /// The campus zone: the submitted and verified days are its days.
    public let zone: TimeZone
    /// The summed change per cell; cells that net to zero stay in the map with 0.
    public private(set) var cells: [CounterKey: Int] = [:]

    public init(zone: TimeZone) {
        self.zone = zone
    }

    /// The change of one report from `old` to `new`.
    public init(zone: TimeZone, from old: ReportRecord?, to new: ReportRecord?) {
        self.zone = zone
        add(from: old, to: new)
    }

    /// Adds the change from `old` to `new` (nil for none: a new or a removed report).
    public mutating func add(from old: ReportRecord?, to new: ReportRecord?) {
        for (key, change) in Counters.delta(from: old?.counterFacts(zone: zone), to: new?.counterFacts(zone: zone)) {
            cells[key, default: 0] += change
        }
    }

    /// Adds changes summed elsewhere (in the same zone).
    public mutating func add(_ other: CounterChanges) {
        for (key, change) in other.cells { cells[key, default: 0] += change }
    }

    /// The cells that change, without those that net to zero.
    public var nonZero: [(key: CounterKey, change: Int)] {
        cells.compactMap { $0.value == 0 ? nil : ($0.key, $0.value) }
    }
}
