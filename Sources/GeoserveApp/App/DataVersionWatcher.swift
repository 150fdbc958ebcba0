import Logging
import ServiceLifecycle
import Storage
import Synchronization

/// Notices a new data version and brings the layer catalog and the publications up to it, off
/// the request path.
///
/// It polls the store (a read of one row on the store's own thread) every `interval`, checks at
/// once when the store reports another process's commit (PostgreSQL), and handlers that commit a
/// change call `check()` right after, so this process sees its own
/// changes at once and other processes' (a second server, the CLI importing a layer) within one
/// interval. Requests only load the version the watcher holds: none waits for a store read.
/// The version is published only after the catalog holds every layer published at it, so a
/// request that sees a version also sees its layers.
final class DataVersionWatcher: Service, Sendable {
    private let source: any DataVersionSource
    private let layers: any AreaStore
    private let catalog: LayerCatalog
    /// Publications, caught up with the catalog before a version is handed to requests.
    let publications: PublicationBook
    private let interval: Duration
    private let logger: Logger
    private let current = Atomic<Int64>(-1)
    /// Times the catalog was brought to a new data version, for the metrics.
    let refreshes = Atomic<Int>(0)

    init(source: any DataVersionSource, layers: any AreaStore, catalog: LayerCatalog, publications: PublicationBook, interval: Duration, logger: Logger) {
        self.source = source
        self.layers = layers
        self.catalog = catalog
        self.publications = publications
        self.interval = interval
        self.logger = logger
        // A backend that is told of other processes' commits (PostgreSQL's LISTEN) wakes the
        // watcher at once; the poll stays as the fallback for notifications that never come.
        source.observeChanges { [weak self] in
            guard let self else { return }
            Task { await self.noteCommit() }
        }
    }

    /// The newest data version whose layers the catalog holds; -1 before the first check.
    var dataVersion: Int64 { current.load(ordering: .acquiring) }

    /// Reads the store's data version and, when it moved, refreshes the catalog and publishes it.
    /// Versions only move forward, so a slow check that overlaps a newer one changes nothing.
    func check() async throws {
        let version = try await source.dataVersion()
        guard version != dataVersion else { return }
        try await catalog.refresh(from: layers)
        try await publications.refresh()
        refreshes.add(1, ordering: .relaxed)
        var seen = current.load(ordering: .relaxed)
        while seen < version {
            let (exchanged, original) = current.compareExchange(expected: seen, desired: version, ordering: .acquiringAndReleasing)
            if exchanged {
                logger.debug("data version moved", metadata: ["dataVersion": .stringConvertible(version)])
                break
            }
            seen = original
        }
    }

    /// Called by a handler right after it committed a change, so the next request of this
    /// process sees it; a failed read is left to the next poll (the change itself is committed).
    func noteCommit() async {
        try? await check()
    }

    /// Polls until the service group shuts down. A failed check is logged and tried again at
    /// the next interval: readers keep the last good catalog meanwhile.
    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await check()
            } catch {
                // Why, where it is the database's absence (no data in it); else the error's type.
                let reason = if case StorageError.unavailable(let why) = error { why } else { String(describing: type(of: error)) }
                logger.warning("data version check failed; retrying", metadata: ["error": "\(reason)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.interval) }
        }
    }
}
