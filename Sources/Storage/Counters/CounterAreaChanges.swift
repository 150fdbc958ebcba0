import Aggregation
import DomainKernel

/// The areas of one layer and basis whose counters changed at or after a data version, with
/// every current cell of those areas (statuses verified and pending, read in one transaction
/// with `dataVersion`): enough to bring statistics computed at that version up to date by
/// recomputing those areas alone.
public struct CounterAreaChanges: Sendable {
    public let dataVersion: Int64
    /// Every changed area, including those whose cells all fell to zero (they have no cells).
    public let areaIDs: [String]
    public let cells: [(CounterKey, Int)]

    public init(dataVersion: Int64, areaIDs: [String], cells: [(CounterKey, Int)]) {
        self.dataVersion = dataVersion
        self.areaIDs = areaIDs
        self.cells = cells
    }
}
