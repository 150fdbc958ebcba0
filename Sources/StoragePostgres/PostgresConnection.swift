import CLibPQ
import Foundation
import Storage

/// One libpq connection (`PGconn*`), finished exactly once in `deinit`.
///
/// Not `Sendable`: libpq calls block on the network, and a connection is used by one thread at a
/// time; `PostgresPool` confines each connection to the thread that holds it.
final class PostgresConnection {
    let conn: OpaquePointer
    /// Statements prepared on this connection, by their SQL: the hot paths are parsed and planned
    /// once per connection, not once per call.
    private var prepared: [String: String] = [:]
    /// The key audit entries appended on this connection are kept with (set by the pool).
    var auditKey: AuditKey?

    /// Connects. `settings` are libpq keywords applied before the location's own, so the
    /// location (and the `PG*` environment variables libpq reads) can override them.
    ///
    /// - Parameter location: a libpq connection URI (`postgres://…`) or `key=value` string.
    init(location: String, settings: [(String, String)]) throws(StorageError) {
        let pairs = settings + [("dbname", location)]
        let handle: OpaquePointer? = withCStrings(pairs.map(\.0)) { keys in
            withCStrings(pairs.map(\.1)) { values in
                // expand_dbname = 1: the location is a URI or key=value string, not a bare name.
                PQconnectdbParams(keys, values, 1)
            }
        }
        guard let handle else { throw .unavailable("out of memory while connecting") }
        guard PQstatus(handle) == CONNECTION_OK else {
            // Every line: with several hosts (a primary and its standby) libpq says why each
            // refused, and the first named only the first host.
            let message = Self.lines(PQerrorMessage(handle))
            PQfinish(handle)
            throw .unavailable("cannot connect: \(message)")
        }
        // The server's notices ("terminating connection due to immediate shutdown") went to
        // standard error as lines outside the JSON log; what matters of them arrives as errors.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        conn = handle
    }

    deinit {
        PQfinish(conn)
    }

    /// Whether the connection is lost (the server went away or closed it) or was left in a state
    /// it cannot leave (`abandon`): such a connection is discarded, never reused.
    var isBroken: Bool { abandoned || PQstatus(conn) != CONNECTION_OK }

    /// Set when a pipeline could not be finished and left: results would be out of step.
    private var abandoned = false

    /// Marks the connection as not to be used again.
    func abandon() {
        abandoned = true
    }

    /// Whether an idle connection can still be used. A server that stopped or restarted closed
    /// its end, which leaves the socket readable. Costs no round trip, so a stale connection is replaced before a statement is lost on it.
    func isUsable() -> Bool {
        guard !isBroken else { return false }
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        // An idle pool connection is sent nothing but the notice of its end (or, rarely, a
        // parameter change): anything to read, and it is replaced rather than trusted.
        return poll(&poller, 1, 0) == 0
    }

    /// The socket, for waiting on notifications.
    var socket: Int32 { PQsocket(conn) }

    /// Runs SQL without parameters through the simple query protocol; several statements may be
    /// separated by semicolons (migrations).
    func execute(_ sql: String) throws(PostgresError) {
        _ = try check(PQexec(conn, sql), operation: "execute")
    }

    /// Runs a parameterised statement. With `prepare`, the statement is prepared on first use and
    /// reused; statements whose text is built per call pass `false` so that they do not pile up.
    @discardableResult
    func query(_ sql: String, _ parameters: [PostgresValue] = [], prepare: Bool = true) throws(PostgresError) -> PostgresResult {
        let texts = parameters.map(\.text)
        if prepare {
            let name = try statementName(for: sql)
            return try withOptionalCStrings(texts) { values throws(PostgresError) in
                try check(PQexecPrepared(conn, name, Int32(texts.count), values, nil, nil, 0), operation: "query")
            }
        }
        return try withOptionalCStrings(texts) { values throws(PostgresError) in
            try check(PQexecParams(conn, sql, Int32(texts.count), nil, values, nil, nil, 0), operation: "query")
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// A connection lost before `COMMIT` was sent rolls the transaction back on the server, so
    /// the error says so (`PostgresError.lostBeforeCommit`) and the caller may run it again on a
    /// new connection; lost during `COMMIT`, the outcome is unknown and is never retried.
    func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        do {
            // The simple protocol: `begin` may carry more than one statement (a lock with it).
            try execute(begin)
        } catch {
            throw error.lostBeforeCommit()
        }
        let value: T
        do {
            value = try body()
        } catch let error as PostgresError {
            if !isBroken { try? execute("ROLLBACK") }
            throw error.lostBeforeCommit()
        } catch {
            if !isBroken { try? execute("ROLLBACK") }
            throw error
        }
        do {
            try query("COMMIT")
        } catch {
            if error.isConnectionLost { throw PostgresError.commitOutcomeUnknown }
            throw error
        }
        return value
    }

    /// Runs `COPY … FROM STDIN` and sends the data `next` gives (CSV text, in chunks) until it
    /// gives nil: the fastest way into PostgreSQL, a stream with no statement per row.
    func copyIn(_ sql: String, _ next: () throws -> [UInt8]?) throws(PostgresError) {
        _ = try check(PQexec(conn, sql), operation: "copy")
        var failure: PostgresError?
        do {
            while let chunk = try next() {
                let sent = chunk.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(conn, $0.baseAddress, Int32($0.count)) }
                }
                guard sent == 1 else { failure = .connectionLost(Self.firstLine(PQerrorMessage(conn))); break }
            }
        } catch {
            failure = .server(sqlstate: "57014", message: "copy abandoned")
        }
        // A failure ends the copy with an error message, which makes the server refuse it.
        guard PQputCopyEnd(conn, failure == nil ? nil : "abandoned") == 1 else { throw .connectionLost(Self.firstLine(PQerrorMessage(conn))) }
        try finishCopy()
        if let failure { throw failure }
    }

    /// Runs `COPY … TO STDOUT` and hands each row (a line of CSV) to `row`.
    func copyOut(_ sql: String, _ row: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        _ = try check(PQexec(conn, sql), operation: "copy")
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(conn, &buffer, 0)
            if length == -1 { break }
            guard length >= 0, let buffer else { throw PostgresError.connectionLost(Self.firstLine(PQerrorMessage(conn))) }
            defer { PQfreemem(buffer) }
            try buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { try row(UnsafeBufferPointer(start: $0, count: Int(length))) }
        }
        try finishCopy()
    }

    /// Reads the copy's closing results: the server's verdict on the whole copy.
    private func finishCopy() throws(PostgresError) {
        var failure: PostgresError?
        while let result = PQgetResult(conn) {
            do { _ = try check(result, operation: "copy") } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// Waits up to `timeout` for the server to send something (a notification), then reads it.
    /// - Returns: the channels of the notifications that arrived.
    func awaitNotifications(timeout: Duration) throws(PostgresError) -> [String] {
        var out = drainNotifications()
        guard out.isEmpty else { return out }
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&poller, 1, milliseconds)
        guard ready > 0 else { return [] }
        // consume_input returns 1 on success and 0 on trouble: a lost connection.
        guard PQconsumeInput(conn) == 1 else { throw .connectionLost(Self.firstLine(PQerrorMessage(conn))) }
        out = drainNotifications()
        return out
    }

    private func drainNotifications() -> [String] {
        var out: [String] = []
        while let n = PQnotifies(conn) {
            out.append(String(cString: n.pointee.relname))
            PQfreemem(n)
        }
        return out
    }

    func statementName(for sql: String) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "g\(prepared.count)"
        _ = try check(PQprepare(conn, name, sql, 0, nil), operation: "prepare")
        prepared[sql] = name
        return name
    }

    /// Turns a result into a value or an error; the result is freed with the value.
    func check(_ result: OpaquePointer?, operation: String) throws(PostgresError) -> PostgresResult {
        guard let result else {
            // A null result: out of memory or a connection that cannot send.
            throw isBroken ? .connectionLost(Self.firstLine(PQerrorMessage(conn))) : .server(sqlstate: "XX000", message: "no result")
        }
        let value = PostgresResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN, PGRES_COPY_OUT:
            return value
        default:
            let state = value.errorField(Self.sqlstateField) ?? ""
            if isBroken || state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03" {
                throw .connectionLost(value.errorField(Self.messageField) ?? Self.firstLine(PQerrorMessage(conn)))
            }
            throw .server(sqlstate: state, message: value.errorField(Self.messageField) ?? "\(operation) failed")
        }
    }

    /// `PG_DIAG_SQLSTATE` and `PG_DIAG_MESSAGE_PRIMARY`: the primary message never carries the
    /// values of the row (those are in the detail, which is never read).
    private static let sqlstateField = Int32(UInt8(ascii: "C"))
    private static let messageField = Int32(UInt8(ascii: "M"))

    /// Every non-empty line of a libpq message, joined with "; ".
    static func lines(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        let all = String(cString: text).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return all.isEmpty ? "unknown error" : all.joined(separator: "; ")
    }

    static func firstLine(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        return String(cString: text).split(separator: "\n").first.map(String.init) ?? "unknown error"
    }
}

/// A value sent as a statement parameter, in PostgreSQL's text format.
enum PostgresValue: Sendable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    var text: String? {
        switch self {
        case .null: nil
        case .int(let n): String(n)
        case .double(let d): "\(d)"
        case .text(let s): s
        }
    }
}

/// Runs `body` with a C array of C strings that live for the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    withOptionalCStrings(strings.map(Optional.some), body)
}

/// Runs `body` with a C array of C strings (NULL for nil) that live for the call.
func withOptionalCStrings<R, E: Error>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws(E) -> R) throws(E) -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } }
    defer { for c in copies { free(c) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return try pointers.withUnsafeBufferPointer { buffer throws(E) -> R in try body(buffer.baseAddress!) }
}
