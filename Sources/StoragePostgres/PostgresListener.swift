import Foundation
import Storage
import Synchronization

/// Listens on `geoserve_data_version` on a connection and a thread of its own, and tells the
/// observers when another process (or this one) committed a new data version.
///
/// A lost connection is replaced after a second; since notifications sent meanwhile are gone,
/// observers are told once after every reconnection so they re-read the version.
final class PostgresListener: Sendable {
    private let pool: PostgresPool
    private let state = Mutex(State())

    private struct State {
        var handlers: [@Sendable () -> Void] = []
        var started = false
        var stopped = false
    }

    init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Adds an observer; the first one starts the listening thread.
    func start(_ handler: @escaping @Sendable () -> Void) {
        let startThread = state.withLock { s -> Bool in
            s.handlers.append(handler)
            defer { s.started = true }
            return !s.started && !s.stopped
        }
        guard startThread else { return }
        let thread = Thread { [self] in listen() }
        thread.name = "geoserve.postgres.listen"
        thread.start()
    }

    /// Ends the listening thread within a second.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func notify() {
        for handler in state.withLock({ $0.handlers }) { handler() }
    }

    private func listen() {
        var connection: PostgresConnection?
        while !stopped {
            do {
                let db: PostgresConnection
                if let existing = connection, !existing.isBroken {
                    db = existing
                } else {
                    db = try pool.connect()
                    try db.execute("LISTEN geoserve_data_version")
                    connection = db
                    notify()
                }
                if try !db.awaitNotifications(timeout: .seconds(1)).isEmpty { notify() }
            } catch {
                connection = nil
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }
}
