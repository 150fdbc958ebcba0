import HTTPTypes
import Storage
import Synchronization

/// A bound on anonymous reports awaiting verification. The per-address budget slows one client;
/// many addresses together are not slowed by it (20 addresses filed 600 reports in 1.6 s, a flood
/// from thousands would bury the verification queue, which is a denial of the service's whole
/// purpose). Past the bound, anonymous submissions are refused with 503 and `Retry-After` until
/// verifiers have worked the queue down; signed-in reporters, limited per account, still file.
///
/// The store's count is read at most once a `refresh` (a count of the pending rows by index,
/// not a query per submission); submissions admitted since are added to it, so several at once
/// cannot all slip past the bound between two reads. With several processes each adds its own
/// admissions to the shared count: the bound holds to within one refresh's intake of the others.
final class PendingAnonymousBound: Sendable {
    /// The most anonymous reports pending at once; 0: no bound.
    let limit: Int
    let refresh: Duration
    private let state = Mutex(State())

    private struct State {
        var counted = 0
        var readAt: ContinuousClock.Instant?
        var admitted = 0
    }

    init(limit: Int, refresh: Duration = .seconds(1)) {
        self.limit = limit
        self.refresh = refresh
    }

    /// Admits one more anonymous report, or throws `503 queue_full` with `Retry-After`.
    func admit(_ reports: any ReportStore, metrics: ServiceMetrics, now: ContinuousClock.Instant = .now) async throws {
        guard limit > 0 else { return }
        let stale = state.withLock { s in s.readAt.map { now - $0 >= refresh } ?? true }
        if stale {
            let counted = try await reports.pendingAnonymousCount()
            state.withLock { s in
                s.counted = counted
                s.readAt = now
                s.admitted = 0
            }
        }
        let pending: Int? = state.withLock { s in
            guard s.counted + s.admitted < limit else { return s.counted + s.admitted }
            s.admitted += 1
            return nil
        }
        guard let pending else { return }
        metrics.rateLimited("pending_anonymous")
        var error = APIError(status: .serviceUnavailable, code: "queue_full",
                             message: "\(pending) anonymous reports are awaiting verification, the most this service takes at once; "
                                 + "try again later, or sign in to report")
        error.retryAfter = 60
        throw error
    }
}
