/// Failures of the store. Descriptions name the operation, never stored values.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database could not be opened or created.
    case cannotOpen(String)
    /// The database engine reported an error during an operation.
    case engine(operation: String, code: Int32, message: String)
    /// A layer that does not exist.
    case unknownLayer(String)
    /// A layer version that does not exist.
    case unknownVersion(layer: String, version: Int)
    /// The database schema is newer than this program understands.
    case schemaTooNew(found: Int, supported: Int)
    /// An import that would break a rule of the store (duplicate ids, empty layer, wrong kind).
    case invalidImport(String)
    /// A unique value is already taken (e.g. an email address).
    case conflict(String)
    /// A record that does not exist.
    case notFound(String)
    /// A stored value that is not what the schema promises (edited outside the service).
    case unreadable(String)
    /// The database cannot be reached or is not answering in time (down, restarting, out of
    /// connections, a statement past its timeout). Nothing of the operation was committed unless
    /// the text says the outcome is unknown; trying again later is the remedy.
    case unavailable(String)
    /// The disk holding the database is full: nothing of the operation was committed; writes
    /// work again once space is freed, without a restart.
    case diskFull(String)
    /// A cap on what one record may hold (e.g. attachments per report) would be exceeded.
    case limitReached(String)

    public var description: String {
        switch self {
        case .cannotOpen(let what): return "cannot open the database: \(what)"
        case .engine(let op, let code, let message): return "database error during \(op) (code \(code)): \(message)"
        case .unknownLayer(let l): return "no layer named \"\(l)\""
        case .unknownVersion(let l, let v): return "layer \"\(l)\" has no version \(v)"
        case .schemaTooNew(let found, let supported):
            return "the database schema is version \(found); this geoserve understands up to \(supported). Use a newer geoserve."
        case .invalidImport(let why): return "import refused: \(why)"
        case .conflict(let what): return "\(what) already exists"
        case .notFound(let what): return "\(what) does not exist"
        case .unreadable(let what): return "a stored value cannot be read: \(what)"
        case .unavailable(let why): return "the database is unavailable: \(why)"
        case .limitReached(let why): return why
        case .diskFull(let op): return "the database's disk is full (during \(op))"
        }
    }
}
