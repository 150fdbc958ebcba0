import Logging
import Synchronization

/// Whether the store's writes are failing for lack of disk. Unknown at start: a process started
/// on a full disk must not say ready until a write has gone through, so `/readyz` first probes
/// with a write of its own. Set by the first write that meets a full disk; `/readyz` then answers
/// not-ready (a load balancer sends writers elsewhere) and probes each time it is asked, clearing
/// the state once one commits.
final class WriteHealth: Sendable {
    private enum State { case unchecked, writing, failing }
    private let state = Mutex(State.unchecked)

    /// Whether `/readyz` must see a write commit before it says ready.
    var needsProbe: Bool { state.withLock { $0 != .writing } }

    /// A write met a full disk; logged once per episode, not once per refused request.
    func diskFull(_ logger: Logger) {
        let first = state.withLock { state in
            defer { state = .failing }
            return state != .failing
        }
        if first { logger.error("the database's disk is full: writes are refused with 507 until space is freed") }
    }

    /// A write committed.
    func recovered(_ logger: Logger) {
        let was = state.withLock { state in
            defer { state = .writing }
            return state
        }
        if was == .failing { logger.notice("the database takes writes again") }
    }
}
