import Dispatch
import Foundation
import Storage
import Synchronization

/// A bounded set of connections to one database, each used by one thread at a time.
///
/// libpq blocks its calling thread on the network, so every call runs on a dispatch queue of the
/// pool's own, never on an event loop or Swift's cooperative threads. At most `size` connections
/// exist; callers beyond that wait in arrival order for one to come back. Connections are opened
/// when first needed and replaced when found broken, so the pool recovers by itself when the
/// server returns after a restart.
final class PostgresPool: Sendable {
    struct Configuration: Sendable {
        /// A libpq connection URI or key=value string; `PG*` variables fill in what it leaves out.
        var location: String
        /// The most connections this process holds.
        var size: Int
        /// The longest a statement may run on the server before it is cancelled.
        var statementTimeout: Duration
        /// The longest a connection attempt may take.
        var connectTimeout: Duration = .seconds(5)
        /// Told of every call's duration (the service's metrics).
        var observer: (any StoreObserver)?
    }

    /// How a failed call may be run again.
    enum Retry: Sendable {
        /// Reads and transactions: again on a new connection when the old one was lost before
        /// anything could commit, and again after a serialization failure or deadlock.
        case safe
        /// A statement outside a transaction that changes data: never again after a lost
        /// connection, whose outcome is unknown; and a transaction whose body consumes a stream.
        case never
    }

    let configuration: Configuration
    /// The audit key every connection is given before it runs an operation.
    let auditKey = Mutex<AuditKey?>(nil)
    private let state = Mutex(State())

    private struct State: ~Copyable {
        var idle: [Slot] = []
        var opened = 0
        var waiters: [CheckedContinuation<Slot, Never>] = []
    }

    init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Runs `body` with a connection on one of the pool's threads.
    func run<T: Sendable>(_ operation: String, retry: Retry = .safe,
                          _ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let start = configuration.observer == nil ? nil : ContinuousClock.now
        let slot = await checkout()
        defer { checkin(slot) }
        return try await withCheckedThrowingContinuation { continuation in
            slot.queue.async { [self] in
                let result = Result { try self.attempt(operation, retry: retry, on: slot, body) }
                if let observer = configuration.observer, let start {
                    observer.storeCall(operation, duration: ContinuousClock.now - start, failed: result.failed)
                }
                continuation.resume(with: result)
            }
        }
    }

    /// Runs `body` in a transaction (see `PostgresConnection.transaction`), run again when the
    /// connection was lost before the commit or the server asked for a retry.
    /// With `retry: .never`, not run again at all (a body that consumes a stream).
    func transaction<T: Sendable>(_ operation: String, begin: String = "BEGIN", retry: Retry = .safe,
                                  _ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await run(operation, retry: retry) { db in try db.transaction(begin) { try body(db) } }
    }

    /// Runs `body` in a transaction that holds the store's writer lock from its first statement.
    func writeTransaction<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await transaction(operation, begin: PostgresStore.beginWriting, body)
    }

    /// A new connection with the service's settings, outside the pool (the notification
    /// listener holds one of its own).
    func connect() throws(StorageError) -> PostgresConnection {
        let seconds = max(1, Int(configuration.connectTimeout.components.seconds))
        let db = try PostgresConnection(location: configuration.location, settings: [
            ("connect_timeout", String(seconds)),
            ("fallback_application_name", "geoserve"),
            ("client_encoding", "UTF8"),
        ])
        let timeout = configuration.statementTimeout.components
        let milliseconds = timeout.seconds * 1000 + timeout.attoseconds / 1_000_000_000_000_000
        do {
            // Notices (a CREATE … IF NOT EXISTS that found the table) would go to standard error.
            // A zero timeout is none, as PostgreSQL takes it (bulk commands).
            try db.execute("SET statement_timeout = \(milliseconds); SET client_min_messages = warning")
        } catch {
            throw error.storageError("connect")
        }
        // The server notices within a second that this process is gone and stops its statement:
        // after a killed import it went on building indexes for 22.4 s, holding the locks
        // (PostgreSQL 14 and later; an older server keeps its default).
        try? db.execute("SET client_connection_check_interval = 1000")
        return db
    }

    private func attempt<T>(_ operation: String, retry: Retry, on slot: Slot, _ body: (PostgresConnection) throws -> T) throws -> T {
        var attempts = 0
        while true {
            attempts += 1
            let db: PostgresConnection
            if let existing = slot.connection, existing.isUsable() {
                db = existing
            } else {
                slot.connection = nil
                db = try connect()
                slot.connection = db
            }
            db.auditKey = auditKey.withLock { $0 }
            do {
                return try body(db)
            } catch let error as PostgresError {
                if db.isBroken { slot.connection = nil }
                let again: Bool
                switch retry {
                case .safe: again = error.isRetryable || error.isLostOutsideTransaction
                case .never: again = false
                }
                guard again, attempts < 4 else { throw error.storageError(operation) }
                if error.sqlstate != nil { Thread.sleep(forTimeInterval: Double.random(in: 0.001...0.01) * Double(attempts)) }
            }
        }
    }

    private func checkout() async -> Slot {
        await withCheckedContinuation { (continuation: CheckedContinuation<Slot, Never>) in
            let slot = state.withLock { s -> Slot? in
                if let slot = s.idle.popLast() { return slot }
                if s.opened < configuration.size {
                    s.opened += 1
                    return Slot(index: s.opened)
                }
                s.waiters.append(continuation)
                return nil
            }
            if let slot { continuation.resume(returning: slot) }
        }
    }

    private func checkin(_ slot: Slot) {
        let waiter = state.withLock { s -> CheckedContinuation<Slot, Never>? in
            if !s.waiters.isEmpty { return s.waiters.removeFirst() }
            s.idle.append(slot)
            return nil
        }
        waiter?.resume(returning: slot)
    }
}

/// A place in the pool and the connection it holds now (nil until opened, or after it broke).
///
/// `@unchecked Sendable`: a slot is held by one caller at a time — between `checkout` and
/// `checkin` — and used only on the pool thread that caller's work runs on.
private final class Slot: @unchecked Sendable {
    var connection: PostgresConnection?
    /// A serial queue of the slot's own: libpq blocks its thread, and serial queues run on
    /// libdispatch's overcommitting threads. A shared concurrent queue would block threads of
    /// the default pool that Swift's tasks run on (on Linux), and a slow database would then
    /// stall every request, those that never touch it included.
    let queue: DispatchQueue

    init(index: Int) {
        queue = DispatchQueue(label: "geoserve.postgres.\(index)")
    }
}

extension PostgresError {
    /// A connection found lost on a read or at `BEGIN`, before any statement of a transaction
    /// ran: nothing was applied, so running it again is safe.
    var isLostOutsideTransaction: Bool {
        if case .connectionLost = self { return true }
        return false
    }
}
