import Storage
import Synchronization

/// An intake batch whose submissions are taken when first asked for, not when it is made: the
/// writer's transaction takes them once it holds the writer lock, so everything that arrived
/// while it waited joins (see `PostgresStore.storeBatch`). Asked again — a retry after a lost
/// connection, or the answers — it gives the same submissions.
final class LateBatch: Sendable {
    private let state: Mutex<State>

    private enum State {
        case pending(@Sendable () -> [QueuedSubmission])
        case taken([QueuedSubmission])
    }

    /// A batch that takes its submissions from `take`, once.
    init(take: @escaping @Sendable () -> [QueuedSubmission]) {
        state = Mutex(.pending(take))
    }

    /// A batch of these submissions.
    init(_ jobs: [QueuedSubmission]) {
        state = Mutex(.taken(jobs))
    }

    var jobs: [QueuedSubmission] {
        state.withLock { state in
            switch state {
            case .taken(let jobs):
                return jobs
            case .pending(let take):
                let jobs = take()
                state = .taken(jobs)
                return jobs
            }
        }
    }
}
