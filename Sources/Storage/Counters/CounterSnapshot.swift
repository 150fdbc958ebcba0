import Aggregation
import DomainKernel

/// Counter cells read together with the data version they belong to.
public struct CounterSnapshot: Sendable {
    public let dataVersion: Int64
    public let cells: [(CounterKey, Int)]

    public init(dataVersion: Int64, cells: [(CounterKey, Int)]) {
        self.dataVersion = dataVersion
        self.cells = cells
    }
}
