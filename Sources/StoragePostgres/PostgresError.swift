import Storage

/// What went wrong with one libpq call, before it becomes a `StorageError`: the pool needs to
/// tell a lost connection (discard it; retry only if nothing can have committed) and a
/// serialization failure (retry) from every other refusal.
enum PostgresError: Error, Sendable {
    /// The server refused the statement; `sqlstate` is its five-character code.
    case server(sqlstate: String, message: String)
    /// The connection is gone (server stopped or restarted, network cut).
    case connectionLost(String)
    /// The connection was lost inside a transaction before `COMMIT` was sent: the server rolled
    /// it back, so running it again cannot apply it twice.
    case lostBeforeCommit(String)
    /// The connection was lost while `COMMIT` was under way: the transaction may or may not have
    /// committed.
    case commitOutcomeUnknown

    var isConnectionLost: Bool {
        switch self {
        case .connectionLost, .lostBeforeCommit, .commitOutcomeUnknown: true
        case .server: false
        }
    }

    /// `40001` (serialization failure) and `40P01` (deadlock detected): the transaction was
    /// rolled back and may simply run again.
    var isRetryable: Bool {
        if case .server(let state, _) = self { return state == "40001" || state == "40P01" }
        if case .lostBeforeCommit = self { return true }
        return false
    }

    var sqlstate: String? {
        if case .server(let state, _) = self { return state }
        return nil
    }

    /// The same error, marked as lost before commit when the connection went away.
    func lostBeforeCommit() -> PostgresError {
        if case .connectionLost(let message) = self { return .lostBeforeCommit(message) }
        return self
    }

    /// As the store's error: a lost connection, an exhausted server or a statement past its
    /// timeout means the database is unavailable (503 at the HTTP edge).
    func storageError(_ operation: String) -> StorageError {
        switch self {
        case .connectionLost(let message), .lostBeforeCommit(let message):
            return .unavailable("connection lost during \(operation): \(message)")
        case .commitOutcomeUnknown:
            return .unavailable("connection lost while committing \(operation); the outcome is unknown")
        case .server(let state, let message):
            switch state {
            case "57014": return .unavailable("\(operation) ran past the statement timeout (--statement-timeout, in seconds)")
            case "53300": return .unavailable("the server has no connection slots left")
            case "53100": return .diskFull("the server's disk is full")
            default: return .engine(operation: operation, code: 0, message: "\(state): \(message)")
            }
        }
    }
}
