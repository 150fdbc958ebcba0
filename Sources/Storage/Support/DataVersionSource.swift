/// The data version: a number that increases with every committed change that can alter a
/// public number (a transition into or out of `verified`, an edit of a verified report, a layer
/// publication, a counter rebuild). Caches and ETags are keyed by it, so every process that reads
/// the same store agrees on what is current.
public protocol DataVersionSource: Sendable {
    /// The data version as of the newest commit of any process. Must not block the caller's
    /// thread on I/O: backends run the read on their own threads.
    func dataVersion() async throws -> Int64

    /// Calls `handler` (on a thread of the store's) whenever another process may have moved the
    /// data version. Polling `dataVersion()` stays necessary: a notification can be lost (a
    /// pooler in transaction mode drops `LISTEN`, a connection breaks).
    func observeChanges(_ handler: @escaping @Sendable () -> Void)
}

extension DataVersionSource {
    /// A backend that cannot be told of commits (SQLite) never calls the handler: its readers poll.
    public func observeChanges(_ handler: @escaping @Sendable () -> Void) {}
}
