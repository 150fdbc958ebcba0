import Foundation
import Storage

/// Online backup and restore of the embedded store: a consistent copy taken while the service
/// runs and takes reports, written under a temporary name, flushed to disk and then renamed, so
/// a failed or interrupted backup never leaves a half file under the name asked for.
///
/// The copy is the whole database: reports, audit trail, counters, publications, accounts, and
/// the attachments table, which lists every attachment file with its SHA-256 (the files
/// themselves stay in the attachments folder; see docs/backup.md). The installation's key
/// file is not in it: it never changes, so it is copied once, and a backup without it does not
/// hand out the keys.
public enum SQLiteBackup {

    /// What a copy holds.
    public struct Summary: Sendable, Equatable {
        public let bytes: Int64
        public let reports: Int
        public let attachments: Int
        public let schemaVersion: Int
    }

    /// Why a backup or restore was not made.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case exists(String)
        case notADatabase(String)

        public var description: String {
            switch self {
            case .exists(let path): "\(path) already exists; a backup or restore never overwrites (choose a new name, or remove it first)"
            case .notADatabase(let path): "\(path) is not a geoserve SQLite store"
            }
        }
    }

    /// Copies the database at `source` to a new file `destination`, sealed with what `seal`
    /// makes of the copy's content (`content(of:)`) before the copy gets its name.
    public static func backup(from source: String, to destination: String, seal: (String) throws -> String) throws -> Summary {
        try copy(from: source, to: destination) { copy in try writeSeal(try seal(copy), into: copy) }
    }

    /// Restores a backup into `destination`, which must not exist yet; the restored file is a
    /// store like any other (open it, migrate it, check it). The backup's seal is checked by the
    /// caller first and left out of the store.
    public static func restore(from backup: String, to destination: String) throws -> Summary {
        guard FileManager.default.fileExists(atPath: backup) else { throw Problem.notADatabase(backup) }
        return try copy(from: backup, to: destination) { copy in try removeSeal(from: copy) }
    }

    /// A store file and the files SQLite keeps beside it, removed: a restore that failed its
    /// checks leaves nothing behind.
    public static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private static func copy(from source: String, to destination: String, finish: (String) throws -> Void) throws -> Summary {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: destination) else { throw Problem.exists(destination) }
        let folder = URL(fileURLWithPath: destination).deletingLastPathComponent()
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(URL(fileURLWithPath: destination).lastPathComponent).\(UUID().uuidString).partial").path
        // With the files SQLite keeps beside it: a copy that failed (a full disk) left its
        // `.partial-journal` beside the target.
        defer { remove(temporary) }
        let from = try SQLiteConnection(path: source, readOnly: true)
        try from.execute("PRAGMA busy_timeout = 5000")
        // A file that is no store at all fails here, before anything is written.
        guard (try? from.scalar("SELECT COUNT(*) FROM schema_migrations")) != nil else { throw Problem.notADatabase(source) }
        do {
            let to = try SQLiteConnection(path: temporary)
            // The copy's own commit need not wait for the disk: the file is flushed once below,
            // before it gets its name.
            try to.execute("PRAGMA synchronous = OFF")
            try from.copy(into: to)
            // The copy keeps the source's WAL flag; a single self-contained file is what a
            // backup should be, and the store switches it back to WAL when it opens it.
            try to.execute("PRAGMA journal_mode = DELETE")
        }
        try finish(temporary)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temporary))
        try handle.synchronize()
        try handle.close()
        guard !manager.fileExists(atPath: destination) else { throw Problem.exists(destination) }
        try manager.moveItem(atPath: temporary, toPath: destination)
        return try summary(destination)
    }

    private static func summary(_ path: String) throws -> Summary {
        let db = try SQLiteConnection(path: path, readOnly: true)
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        return Summary(bytes: bytes, reports: Int(try db.scalar("SELECT COUNT(*) FROM reports") ?? 0),
                       attachments: Int(try db.scalar("SELECT COUNT(*) FROM attachments") ?? 0),
                       schemaVersion: Int(try db.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") ?? 0))
    }
}
