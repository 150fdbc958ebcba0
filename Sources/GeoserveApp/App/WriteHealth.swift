import Logging
import Synchronization

/// Whether the store's writes are failing for lack of disk. Set by the first write that meets a
/// full disk; `/readyz` then answers not-ready (a load balancer sends writers elsewhere) and
/// probes with a write of its own each time it is asked, clearing the state once one commits.
final class WriteHealth: Sendable {
    private let failing = Mutex(false)

    var isFailing: Bool { failing.withLock { $0 } }

    /// A write met a full disk; logged once per episode, not once per refused request.
    func diskFull(_ logger: Logger) {
        let first = failing.withLock { state in
            defer { state = true }
            return !state
        }
        if first { logger.error("the database's disk is full: writes are refused with 507 until space is freed") }
    }

    func recovered(_ logger: Logger) {
        let was = failing.withLock { state in
            defer { state = false }
            return state
        }
        if was { logger.notice("the database takes writes again") }
    }
}
