import Aggregation
import Foundation

/// The reads and writes of checking and repairing the aggregate counters, inside a transaction
/// the backend has opened; the rule of a repair is written once, below.
public protocol CounterWrites: StoreWrites {
    /// The stored counters' nonzero cells.
    func storedCounters() throws -> CounterTable
    /// The counters counted again from the reports, as `Counters` defines them.
    func recountedCounters() throws -> CounterTable
    /// Sets the wrong cells to their recount (zero included); a backend may write the whole
    /// recount instead when most cells are wrong.
    func repair(_ wrong: [CounterDifference], recounted: CounterTable) throws
    /// Records the current data version as the last rebuild's.
    func markRebuilt() throws
}

extension CounterWrites {
    /// The cells where the stored counters and a recount disagree, and the recount.
    public func counterDifferences() throws -> (wrong: [CounterDifference], recounted: CounterTable) {
        let recounted = try recountedCounters()
        let wrong = try storedCounters().differences(from: recounted).map { CounterDifference(key: $0.key, stored: $0.mine, recomputed: $0.theirs) }
        return (wrong, recounted)
    }

    /// Repairs every wrong cell (see `CounterStore.rebuildCounters`).
    /// - Returns: how many cells were wrong.
    public func rebuildCounters() throws -> Int {
        let (wrong, recounted) = try counterDifferences()
        guard !wrong.isEmpty else { return 0 }
        // The repaired cells are stamped with the bumped version, which is recorded as the last
        // rebuild: live views older than it are computed again whole.
        try bumpDataVersion()
        try repair(wrong, recounted: recounted)
        try markRebuilt()
        return wrong.count
    }
}
