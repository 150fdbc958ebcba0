import Aggregation
import DomainKernel

/// The aggregate counters per (layer, area, kind, status, basis, day, group), kept by the store
/// in the same transaction as every report change that moves them.
///
/// Concurrency contract: a snapshot's cells and data version come from one read transaction, so
/// whatever is labelled with the version holds exactly its numbers. A rebuild replaces every
/// cell and bumps the data version in one transaction.
public protocol CounterStore: Sendable {
    /// Counter cells of one layer and basis, statuses verified and pending (what statistics
    /// read), with the data version they belong to.
    func counterSnapshot(layer: String, basis: TimeBasis) async throws -> CounterSnapshot

    /// The areas of one layer and basis whose counters changed at or after data version `since`
    /// and their current cells, or nil when more than `limit` areas changed (a full snapshot is
    /// then the cheaper read) or the counters were rebuilt after `since` (a rebuild replaces
    /// cells wholesale and records its version instead of marking each change). Reading at or
    /// after `since`, not after it, makes the answer complete whichever side of a reader's
    /// snapshot a change at `since` committed on; reading an area twice is harmless, since its
    /// cells are read whole.
    func counterChanges(layer: String, basis: TimeBasis, since: Int64, limit: Int) async throws -> CounterAreaChanges?

    /// Recomputes every counter from the reports and returns the cells where the stored
    /// counters differ (empty when they agree).
    func checkCounters() async throws -> [CounterDifference]

    /// Replaces the stored counters with the recomputed ones in one transaction; returns how
    /// many cells were wrong. Bumps the data version when anything changed.
    @discardableResult
    func rebuildCounters() async throws -> Int
}
