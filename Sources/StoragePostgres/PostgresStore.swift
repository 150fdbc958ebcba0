import Foundation
import Storage
import Synchronization

/// The store on PostgreSQL, for several geoserve processes on one database.
///
/// What SQLite gets from its single writer is explicit here (see the `Storage` protocols'
/// concurrency contracts):
/// - Every transaction that changes reports, their areas, counters or the audit trail first
///   takes the *writer lock*, `LOCK TABLE audit IN EXCLUSIVE MODE` (`writeTransaction`). The audit trail is one hash
///   chain over the installation, so its appends need a total order; holding the lock for the
///   whole transaction also makes the 14-day rule and idempotency keys (checked, then inserted)
///   and counter changes exact across processes. Plain reads are not blocked by it. Intake
///   amortises the lock with group commit (one transaction per batch of submissions) and takes
///   the lock before it takes its batch, so that a process waiting for another's commit gathers
///   more submissions meanwhile (see `storeBatch`).
/// - Claims, accounts, tokens and secrets, which touch one row and no chain, rely on row locks
///   and unique constraints (`INSERT … ON CONFLICT`) instead.
/// - Layer versions are numbered under a row lock on the layer.
/// - Migrations run under an advisory lock.
/// - Every data-version bump notifies `geoserve_data_version` (a trigger), so other processes
///   refresh at once; they also poll, because transaction-mode poolers drop `LISTEN`.
public final class PostgresStore: Sendable {
    let pool: PostgresPool
    let intake = Mutex(IntakeQueue<QueuedSubmission>())
    let listener: PostgresListener
    /// The campus's time zone: report days and counter days are its days.
    public let timeZone: TimeZone
    /// Up to this many wrong cells a counter rebuild upserts them; beyond, it rewrites the table.
    let rebuildUpsertLimit: Int

    /// A store on the database at `location` (a libpq URI or key=value string). Nothing connects
    /// until the first call.
    /// - Parameters:
    ///   - connections: the most connections this process opens.
    ///   - statementTimeout: the longest one statement may run.
    ///   - observer: told of every call's duration (the service's metrics).
    public init(location: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!, connections: Int = 4,
                statementTimeout: Duration = .seconds(30), observer: (any StoreObserver)? = nil, rebuildUpsertLimit: Int = defaultRebuildUpsertLimit) {
        pool = PostgresPool(.init(location: location, size: max(1, connections), statementTimeout: statementTimeout, observer: observer))
        listener = PostgresListener(pool: pool)
        self.timeZone = timeZone
        self.rebuildUpsertLimit = rebuildUpsertLimit
    }

    deinit {
        listener.stop()
    }

    /// The statements that open a transaction holding the writer lock (see the type's comment),
    /// sent in one round trip.
    static let beginWriting = "BEGIN; \(lockWriter)"

    /// The writer lock alone, for a transaction that takes it late (intake).
    static let lockWriter = "LOCK TABLE audit IN EXCLUSIVE MODE"

    /// Moves the data version on, inside the caller's transaction; the trigger notifies every
    /// listening process when the transaction commits.
    /// Wrong counter cells a rebuild writes one by one before it replaces the table instead.
    public static let defaultRebuildUpsertLimit = 20_000

    /// Runs one of the store's changes in a transaction that holds the writer lock, through the
    /// steps the shared scripts are written over.
    func write<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (PostgresWrites) throws -> T) async throws -> T {
        let zone = timeZone, limit = rebuildUpsertLimit
        return try await pool.writeTransaction(operation) { db in try body(PostgresWrites(db: db, zone: zone, rebuildUpsertLimit: limit)) }
    }

    static func bumpDataVersion(_ db: PostgresConnection) throws {
        try db.query("UPDATE meta SET value = value + 1 WHERE key = 'data_version'")
    }
}

extension PostgresStore: StoreAdmin {
    @discardableResult
    public func migrate() async throws -> Int {
        try await pool.run("migrate") { db in
            // A session lock, held across the per-migration transactions and released at the end
            // (or when the connection drops): a second process waits, then finds nothing to do.
            try db.query("SELECT pg_advisory_lock($1)", [.int(PostgresMigrations.lockKey)])
            defer { _ = try? db.query("SELECT pg_advisory_unlock($1)", [.int(PostgresMigrations.lockKey)]) }
            return try PostgresWrites(db: db, zone: .gmt).migrate()
        }
    }

    public func ping() async throws {
        _ = try await pool.run("ping") { db in try db.query("SELECT 1").firstInt }
    }

    public func schemaDifferences() async throws -> [SchemaDifference] {
        try await pool.run("compare the schema") { db in try PostgresSchema.differences(db) }
    }

    public func exclusiveHolds() async throws -> [String] {
        // `::regclass` looks the names up without locking them, and pg_locks is readable by
        // every role: the probe itself never waits for the hold it looks for.
        try await pool.run("look for exclusive holds") { db in
            let rows = try db.query("""
                SELECT DISTINCT c.relname::text FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                WHERE l.locktype = 'relation' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.mode = 'AccessExclusiveLock' AND l.granted AND l.pid <> pg_backend_pid()
                  AND l.relation IN ('reports'::regclass, 'report_areas'::regclass, 'counters'::regclass)
                ORDER BY 1
                """)
            return (0..<rows.count).map { rows.string($0, 0) }
        }
    }

    public func probeWrite(bytes: Int) async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await pool.run("probe a write", retry: .never) { db in
            try db.query("INSERT INTO meta (key, value) VALUES ('write_probe', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [.int(now)])
            guard bytes > 0 else { return () }
            // Hex of random digests: compression in the server's storage gains nothing on it.
            try db.query("""
                INSERT INTO secrets (name, value)
                SELECT 'write_probe', string_agg(md5(random()::text), '') FROM generate_series(1, ($1::int + 31) / 32)
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """, [.int(Int64(bytes))])
            try db.query("DELETE FROM secrets WHERE name = 'write_probe'")
            return ()
        }
    }
}

extension PostgresStore: DataVersionSource {
    public func dataVersion() async throws -> Int64 {
        try await pool.run("read the data version") { db in try Self.dataVersion(db) }
    }

    /// The data version, read inside the caller's transaction.
    static func dataVersion(_ db: PostgresConnection) throws -> Int64 {
        try db.query("SELECT value FROM meta WHERE key = 'data_version'").firstInt ?? 0
    }

    public func observeChanges(_ handler: @escaping @Sendable () -> Void) {
        listener.start(handler)
    }
}
