/// Told how long the store's calls take and whether they failed, for the service's metrics.
/// Called on the store's own threads after each call, so it must be cheap and never block.
public protocol StoreObserver: Sendable {
    /// One call into the database, from asking to answer: waiting for a connection or for the
    /// writer's queue is part of it, as the caller feels it. `operation` is a fixed name per call
    /// site, never data.
    func storeCall(_ operation: String, duration: Duration, failed: Bool)
    /// One group commit of report submissions: how many it held and how long the transaction took.
    func intakeBatch(size: Int, duration: Duration, failed: Bool)
}

extension Result {
    /// Whether the call this result came from failed, for a `StoreObserver`.
    public var failed: Bool {
        if case .failure = self { return true }
        return false
    }
}
