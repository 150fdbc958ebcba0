import Foundation
import Storage
import Synchronization

/// The alerts and resources as last read from the store, so that every dashboard's poll is
/// answered from memory. A change made through this process is seen at once; one made through
/// another process sharing the store within `freshness`.
final class NoticeBoard: Sendable {
    struct Snapshot: Sendable {
        let alerts: [StoredAlert]
        let resources: [StoredResource]
        let readAt: ContinuousClock.Instant
    }

    let store: any NoticeStore
    let freshness: Duration
    /// The snapshot, and a count of changes so that a read that began before a change never
    /// stores what it read over the change.
    private let cached = Mutex<(snapshot: Snapshot?, generation: Int)>((nil, 0))

    init(store: any NoticeStore, freshness: Duration = .seconds(5)) {
        self.store = store
        self.freshness = freshness
    }

    /// The notices, read again when older than `freshness`.
    func snapshot() async throws -> Snapshot {
        let now = ContinuousClock.now
        let (kept, generation) = cached.withLock { ($0.snapshot, $0.generation) }
        if let kept, now - kept.readAt < freshness { return kept }
        // Two requests may both read after the snapshot aged; both read the same rows: cheaper
        // than making every reader wait on one.
        let fresh = Snapshot(alerts: try await store.alerts(), resources: try await store.resources(), readAt: now)
        cached.withLock { if $0.generation == generation { $0.snapshot = fresh } }
        return fresh
    }

    /// Forgets the snapshot after a change through this process.
    func changed() {
        cached.withLock {
            $0.snapshot = nil
            $0.generation += 1
        }
    }
}
