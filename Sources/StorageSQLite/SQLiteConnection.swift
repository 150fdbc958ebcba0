import CSQLite
import DomainKernel
import Foundation
import Storage

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the bind call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection (`sqlite3*`), closed exactly once in `deinit`.
///
/// Not `Sendable`: a connection is used by one thread at a time; `SQLiteStore` confines it to
/// its queue.
final class SQLiteConnection {
    /// The key audit entries appended on this connection are kept with (set by the store).
    var auditKey: AuditKey?
    private let db: OpaquePointer
    /// The connection handle, for the few C calls made outside this type (the backup API).
    var handle: OpaquePointer { db }
    /// Compiled statements of the hot paths, reused across calls.
    private var cache: [String: SQLiteStatement] = [:]

    /// Process-wide settings, made before the first connection opens. Memory statistics off:
    /// they took a global mutex for every allocation SQLite makes (pthread_mutex_lock and unlock
    /// were 8.6 % of the intake writer thread's samples in a profile).
    private static let configured: Void = { _ = geoserve_sqlite3_disable_memstatus() }()

    /// Opens (creating if needed) the database file; `readOnly` opens an existing one only to
    /// read. (Read-write underneath: a WAL database is read through its shared-memory file,
    /// which a read-only handle may not be able to create; `query_only` keeps it a reader.)
    init(path: String, readOnly: Bool = false) throws(StorageError) {
        // A new file is made readable by its owner alone, whatever the umask: it holds every
        // report. SQLite gives its WAL and shared-memory files the database file's mode.
        if !readOnly, !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        Self.configured
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        // open_v2 returns SQLITE_OK or an error code; the handle must be closed either way.
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw .cannotOpen("\(path): \(message)")
        }
        db = handle
        sqlite3_extended_result_codes(db, 1)
        if readOnly { try execute("PRAGMA query_only = ON") }
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(db)
    }

    /// Rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite3_changes(db)) }

    func error(_ operation: String, _ rc: Int32) -> StorageError {
        Self.error(operation, rc, message: String(cString: sqlite3_errmsg(db)))
    }

    /// SQLITE_FULL (and its extended codes) is the disk, not the statement: a case of its own,
    /// so that the service answers 507 and keeps serving reads instead of a 500.
    static func error(_ operation: String, _ rc: Int32, message: String) -> StorageError {
        rc & 0xFF == SQLITE_FULL ? .diskFull(operation) : .engine(operation: operation, code: rc, message: message)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(StorageError) {
        // exec_r returns SQLITE_OK or an error code; the message is ours to free.
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else {
            throw Self.error("execute", rc, message: message.map { String(cString: $0) } ?? "unknown")
        }
    }

    /// Compiles a statement.
    func prepare(_ sql: String) throws(StorageError) -> SQLiteStatement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error("prepare", rc) }
        return SQLiteStatement(connection: self, pointer: stmt)
    }

    /// A compiled statement kept for reuse. Only for statements that are run to completion
    /// before the same SQL is needed again (no nested use of one statement).
    func cached(_ sql: String) throws(StorageError) -> SQLiteStatement {
        if let s = cache[sql] { return s }
        let s = try prepare(sql)
        cache[sql] = s
        return s
    }

    /// Runs `body` in a transaction, immediate unless `begin` says otherwise (`BEGIN` for reads
    /// that must see one snapshot): committed when it returns, rolled back when it throws, so
    /// nothing half-written stays behind.
    func transaction<T>(_ begin: String = "BEGIN IMMEDIATE", _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The first column of the first row of a query, as an integer.
    func scalar(_ sql: String) throws(StorageError) -> Int64? {
        let s = try prepare(sql)
        return try s.step() ? s.int(0) : nil
    }
}

/// A compiled statement (`sqlite3_stmt*`), finalized exactly once in `deinit`. Keeps its
/// connection alive.
final class SQLiteStatement {
    private let connection: SQLiteConnection
    private let pointer: OpaquePointer

    init(connection: SQLiteConnection, pointer: OpaquePointer) {
        self.connection = connection
        self.pointer = pointer
    }

    deinit {
        sqlite3_finalize(pointer)
    }

    /// A value to bind.
    enum Value {
        case null
        case int(Int64)
        case double(Double)
        case text(String)
    }

    /// Binds values to the parameters in order (1-based in SQLite).
    @discardableResult
    func bind(_ values: Value...) throws(StorageError) -> SQLiteStatement {
        try bind(values: values)
    }

    /// Binds an array of values to the parameters in order.
    @discardableResult
    func bind(values: [Value]) throws(StorageError) -> SQLiteStatement {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
        for (i, v) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch v {
            case .null: rc = sqlite3_bind_null(pointer, index)
            case .int(let n): rc = sqlite3_bind_int64(pointer, index, n)
            case .double(let d): rc = sqlite3_bind_double(pointer, index, d)
            case .text(let s): rc = sqlite3_bind_text(pointer, index, s, -1, transient)
            }
            guard rc == SQLITE_OK else { throw connection.error("bind", rc) }
        }
        return self
    }

    /// Advances to the next row: true when a row is available, false when done.
    func step() throws(StorageError) -> Bool {
        let rc = sqlite3_step(pointer)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error("step", rc)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(StorageError) {
        while try step() {}
    }

    /// Ends a query early so that a cached statement releases its read.
    func finish() throws(StorageError) {
        sqlite3_reset(pointer)
    }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(pointer, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }
    func columnType(_ column: Int32) -> Int32 { sqlite3_column_type(pointer, column) }

    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(pointer, column) else { return nil }
        return String(cString: p)
    }

    var columnCount: Int32 { sqlite3_column_count(pointer) }

    /// A text or blob value's bytes as stored (text without conversion).
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
        let base = sqlite3_column_type(pointer, column) == SQLITE_BLOB ? sqlite3_column_blob(pointer, column)
            : sqlite3_column_text(pointer, column).map { UnsafeRawPointer($0) }
        return UnsafeRawBufferPointer(start: base, count: Int(sqlite3_column_bytes(pointer, column)))
    }
}
