import Dispatch
import DomainKernel
import Foundation
import Storage
import Synchronization

/// The embedded store: one SQLite file in WAL mode with `synchronous = FULL`, so that a
/// committed transaction survives a crash of the process and of the machine.
///
/// All database work runs on one serial dispatch queue, off Swift's cooperative pool, because
/// SQLite calls block on disk I/O. That queue is the store's single writer: it is what makes
/// the audit chain, the 14-day rule, idempotency keys and claims atomic here (see the
/// concurrency contracts of the `Storage` protocols).
public final class SQLiteStore: Sendable {
    private let queue: DispatchQueue
    /// Where the data-version reads run: its own thread, so a read neither waits behind the
    /// writer's queue nor blocks a caller's thread.
    private let readerQueue: DispatchQueue
    private let connection: ConfinedConnection
    private let intake = Mutex(IntakeQueue<IntakeJob>())
    /// A second connection for the data-version read that the version watcher makes, so it
    /// neither waits behind the writer's queue nor delays it. WAL lets it read while the writer
    /// commits.
    private let versionReader: ConfinedConnection
    /// Where the database lives.
    public let path: String
    /// The campus's time zone: report days and counter days are its days.
    public let timeZone: TimeZone
    /// Told of every call's duration (the service's metrics); nil for commands.
    let observer: (any StoreObserver)?

    /// Opens or creates the database at `path` (its folder is created when missing).
    public init(path: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!, observer: (any StoreObserver)? = nil) throws {
        self.path = path
        self.timeZone = timeZone
        self.observer = observer
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw StorageError.cannotOpen("\(path): its folder cannot be created")
        }
        let c = try SQLiteConnection(path: path)
        // The busy timeout comes first: switching to WAL waits for a lock too, and another
        // connection closing (its checkpoint) can hold one for a moment.
        try c.execute("""
            PRAGMA busy_timeout = 5000;
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            PRAGMA foreign_keys = ON;
            PRAGMA cache_size = \(Self.cacheSize);
            PRAGMA mmap_size = \(Self.mmapSize);
            PRAGMA temp_store = MEMORY;
            PRAGMA journal_size_limit = \(Self.logBytesKept);
            """)
        connection = ConfinedConnection(c)
        queue = DispatchQueue(label: "geoserve.sqlite")
        readerQueue = DispatchQueue(label: "geoserve.sqlite.reader")
        let reader = try SQLiteConnection(path: path)
        try reader.execute("PRAGMA busy_timeout = 5000; PRAGMA query_only = ON;")
        versionReader = ConfinedConnection(reader)
    }

    /// The writer's page cache, as `PRAGMA cache_size` takes it (negative: KiB), and while a
    /// layer's areas are written.
    static let cacheSize = -65_536
    static let importCacheSize = -8_192

    /// Bytes of the database file the writer connection reads through a memory map.
    static let mmapSize = 268_435_456

    /// What the write-ahead log may keep of its size once it has been copied into the database
    /// (`journal_size_limit`), and the size beyond which a store opened empties it first.
    static let logBytesKept = 67_108_864

    /// Copies the write-ahead log into the database file and empties it. A process that opens
    /// the store after the last one left without closing it reads the whole log back and copies
    /// it again at its first write: a 400,000-report import left 394 MB of log, and every start
    /// after it paid 375 ms at its first write. Waits at most a second for readers in other
    /// processes; a log still in use is left as it is.
    static func emptyLog(_ db: SQLiteConnection) {
        try? db.execute("PRAGMA busy_timeout = 1000; PRAGMA wal_checkpoint(TRUNCATE); PRAGMA busy_timeout = 5000")
    }

    /// A change large enough to leave a large log (imports, rebuilds), the log emptied after it,
    /// also when it fails: a rolled-back import's pages stay in the log (7.5 MB of a failed
    /// `import-reports` filled a disk, and every submission got 507).
    func bulkWrite<T: Sendable>(_ operation: StaticString = #function, _ body: @escaping @Sendable (SQLiteWrites) throws -> T) async throws -> T {
        do {
            let result = try await write(operation, body)
            try await run(operation) { Self.emptyLog($0) }
            return result
        } catch {
            _ = try? await run(operation) { Self.emptyLog($0) }
            throw error
        }
    }

    /// Runs one of the store's changes in a transaction of its own, through the steps the shared
    /// scripts are written over.
    func write<T: Sendable>(_ operation: StaticString = #function, _ body: @escaping @Sendable (SQLiteWrites) throws -> T) async throws -> T {
        let zone = timeZone
        return try await run(operation) { db in try db.transaction { try body(SQLiteWrites(db: db, zone: zone)) } }
    }

    /// Runs `body` with the connection on the store's queue. The observer hears of it under the
    /// calling method's name (`#function` up to its parameters: a fixed set, never data).
    func run<T: Sendable>(_ operation: StaticString = #function, _ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let start = observer == nil ? nil : ContinuousClock.now
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { [connection, observer] in
                let result = Result { try body(connection.value) }
                if let observer, let start {
                    let name = operation.description
                    observer.storeCall(String(name.prefix { $0 != "(" }), duration: ContinuousClock.now - start, failed: result.failed)
                }
                continuation.resume(with: result)
            }
        }
    }

    /// Adds a submission to the next group commit, queueing a drain unless one is under way.
    func enqueue(_ job: IntakeJob) {
        if intake.withLock({ $0.add(job) }) { queue.async { [self] in drain() } }
    }

    /// Commits one batch, then queues the next drain behind whatever else waits on the queue, so
    /// steady intake never starves verifications and reads; an empty batch ends the drain.
    private func drain() {
        let jobs = intake.withLock { $0.takeBatch() }
        guard !jobs.isEmpty else { return }
        commit(jobs)
        queue.async { [self] in drain() }
    }

    /// Group commit: every submission that arrived while the previous commit was being written
    /// goes into one transaction and one fsync. Each runs under its own savepoint, so one that
    /// fails (a rule, a constraint) is rolled back alone and the others still commit. The
    /// batch's counter changes are summed and written once, after the last submission.
    private func commit(_ jobs: [IntakeJob]) {
        let start = ContinuousClock.now
        var failed = false
        defer { observer?.intakeBatch(size: jobs.count, duration: ContinuousClock.now - start, failed: failed) }
        let db = connection.value
        var results: [Result<SubmissionOutcome, any Error>] = []
        results.reserveCapacity(jobs.count)
        do {
            try db.cached("BEGIN IMMEDIATE").bind().run()
            var audit = try Self.auditTail(db)
            let published = try Self.publishedAreaVersions(db)
            var counters = CounterChanges(zone: timeZone)
            let savepoint = try db.cached("SAVEPOINT submission")
            let release = try db.cached("RELEASE submission")
            let rollback = try db.cached("ROLLBACK TO submission")
            for job in jobs {
                try savepoint.bind().run()
                let auditBefore = audit
                do {
                    let outcome = try Self.store(job, db, audit: &audit, published: published)
                    try release.bind().run()
                    if case .created(let r) = outcome { counters.add(from: nil, to: r) }
                    results.append(.success(outcome))
                } catch {
                    try rollback.bind().run()
                    try release.bind().run()
                    audit = auditBefore
                    results.append(.failure(error))
                }
            }
            try Self.writeCounters(counters, db)
            try db.cached("COMMIT").bind().run()
        } catch {
            try? db.execute("ROLLBACK")
            failed = true
            for job in jobs { job.continuation.resume(throwing: error) }
            return
        }
        for (job, result) in zip(jobs, results) { job.continuation.resume(with: result) }
    }

}

extension SQLiteStore: StoreAdmin {
    @discardableResult
    public func migrate() async throws -> Int {
        let (zone, log) = (timeZone, path + "-wal")
        return try await run { db in
            let version = try SQLiteWrites(db: db, zone: zone).migrate()
            let logBytes = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
            if logBytes > Self.logBytesKept { Self.emptyLog(db) }
            return version
        }
    }

    public func ping() async throws {
        _ = try await run { db in try db.scalar("SELECT 1") }
    }

    public func schemaDifferences() async throws -> [SchemaDifference] {
        try await run { db in try SQLiteSchema.differences(of: db) }
    }

    /// Readers of a write-ahead log never wait for the writer.
    public func exclusiveHolds() async throws -> [String] { [] }

    public func probeWrite(bytes: Int) async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await run { db in
            try db.transaction {
                try db.cached("INSERT INTO meta (key, value) VALUES ('write_probe', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
                    .bind(.int(now)).run()
                // Random text, as a report's is: nothing on the way to the disk makes it smaller.
                if bytes > 0 {
                    try db.cached("INSERT INTO secrets (name, value) VALUES ('write_probe', hex(randomblob(?))) ON CONFLICT (name) DO UPDATE SET value = excluded.value")
                        .bind(.int(Int64((bytes + 1) / 2))).run()
                }
            }
            if bytes > 0 { try db.transaction { try db.cached("DELETE FROM secrets WHERE name = 'write_probe'").bind().run() } }
        }
    }
}

extension SQLiteStore: AreaStore {
    public func layers() async throws -> [LayerSummary] {
        // One snapshot for both reads, as on PostgreSQL: another process (an import from the
        // command line) may publish a version between them.
        try await run { db in try db.transaction("BEGIN") {
            let versions = try db.prepare("""
                SELECT layer, version, created_at, source, feature_count, repaired_count, rejected_count
                FROM layer_versions ORDER BY layer, version
                """)
            var byLayer: [String: [(Int, String, String?, Int, Int, Int)]] = [:]
            while try versions.step() {
                byLayer[versions.text(0)!, default: []].append((Int(versions.int(1)), versions.text(2)!, versions.text(3),
                                                                Int(versions.int(4)), Int(versions.int(5)), Int(versions.int(6))))
            }
            let s = try db.prepare("SELECT name, kind, published_version FROM layers ORDER BY name")
            var out: [LayerSummary] = []
            while try s.step() {
                let name = s.text(0)!
                let kind = LayerKind(rawValue: s.text(1)!) ?? .areas
                let infos = try (byLayer[name] ?? []).map { v in
                    LayerVersionInfo(layer: name, version: v.0, kind: kind, createdAt: try Timestamp.parse(v.1), source: v.2,
                                     featureCount: v.3, repairedCount: v.4, rejectedCount: v.5)
                }
                out.append(LayerSummary(name: name, kind: kind, publishedVersion: s.isNull(2) ? nil : Int(s.int(2)), versions: infos))
            }
            return out
        } }
    }

    public func stage(_ layer: LayerImport) async throws -> LayerVersionInfo {
        let rows = try layer.rows()
        // A layer that must exist or be new is never refused as existing.
        return try await write { try $0.stage(layer, rows: rows, onlyIfNew: false)! }
    }

    public func importNewLayer(_ layer: LayerImport) async throws -> LayerVersionInfo? {
        let rows = try layer.rows()
        return try await write { try $0.importNewLayer(layer, rows: rows) }
    }

    public func importAndPublish(_ layer: LayerImport, resolve: AreaResolver?) async throws -> (info: LayerVersionInfo, moved: Int) {
        let rows = try layer.rows()
        return try await bulkWrite { try $0.importAndPublish(layer, rows: rows, resolve: resolve) }
    }

    @discardableResult
    public func publish(layer: String, version: Int, resolve: AreaResolver?) async throws -> Int {
        try await bulkWrite { try $0.publishStored(layer: layer, version: version, resolve: resolve) }
    }

    /// Moves the data version on inside the caller's transaction: every cache and ETag keyed by
    /// it turns over.
    static func bumpDataVersion(_ db: SQLiteConnection) throws {
        try db.execute("UPDATE meta SET value = value + 1 WHERE key = 'data_version'")
    }

    public func areas(layer: String, version: Int) async throws -> [StoredArea] {
        let rows: [StoredArea.Row] = try await run { db in
            // Read without the memory map: a layer is read once, whole, and through the map its
            // pages would stay in the process's resident set afterwards (85 MB of 465 at 300,000
            // areas). Turning the map off also lets go of the pages touched so far; it comes
            // back, empty, for the next statement, and the page cache the read filled instead is
            // handed back.
            try db.execute("PRAGMA mmap_size = 0")
            defer { try? db.execute("PRAGMA shrink_memory; PRAGMA mmap_size = \(Self.mmapSize)") }
            let s = try db.prepare("SELECT area_id, name, properties, geometry FROM areas WHERE layer = ? AND version = ? ORDER BY area_id")
                .bind(.text(layer), .int(Int64(version)))
            var out: [StoredArea.Row] = []
            while try s.step() { out.append((s.text(0)!, s.text(1), s.text(2)!, s.text(3)!)) }
            if out.isEmpty {
                let known = try db.prepare("SELECT 1 FROM layer_versions WHERE layer = ? AND version = ?")
                    .bind(.text(layer), .int(Int64(version))).firstInt()
                if known == nil { throw StorageError.unknownVersion(layer: layer, version: version) }
            }
            return out
        }
        return try StoredArea.read(rows: rows, layer: layer, version: version)
    }

}

extension SQLiteStore: DataVersionSource {
    public func dataVersion() async throws -> Int64 {
        try await withCheckedThrowingContinuation { continuation in
            readerQueue.async { [versionReader] in
                continuation.resume(with: Result {
                    let s = try versionReader.value.cached("SELECT value FROM meta WHERE key = 'data_version'")
                    defer { try? s.finish() }
                    return try s.firstInt() ?? 0
                })
            }
        }
    }
}

/// The store's connection, confined to the store's serial queue.
///
/// `@unchecked Sendable` is sound because each connection has one serial queue that is its only
/// access path (`SQLiteStore.run` for the writer, the reader queue for the version reader), so a
/// connection is never used by two threads at once.
private final class ConfinedConnection: @unchecked Sendable {
    let value: SQLiteConnection
    init(_ value: SQLiteConnection) { self.value = value }
}

extension SQLiteStatement {
    func firstInt() throws(StorageError) -> Int64? { try step() ? int(0) : nil }
    func firstText() throws(StorageError) -> String? { try step() ? text(0) : nil }
}
