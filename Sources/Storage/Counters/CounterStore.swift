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

    /// Recomputes every counter from the reports and returns the cells where the stored
    /// counters differ (empty when they agree).
    func checkCounters() async throws -> [CounterDifference]

    /// Replaces the stored counters with the recomputed ones in one transaction; returns how
    /// many cells were wrong. Bumps the data version when anything changed.
    @discardableResult
    func rebuildCounters() async throws -> Int
}
