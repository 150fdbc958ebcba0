import Aggregation
import DomainKernel

/// A counter cell whose stored count differs from a recount from the reports.
public struct CounterDifference: Sendable {
    public let key: CounterKey
    public let stored: Int
    public let recomputed: Int

    public init(key: CounterKey, stored: Int, recomputed: Int) {
        self.key = key
        self.stored = stored
        self.recomputed = recomputed
    }
}
