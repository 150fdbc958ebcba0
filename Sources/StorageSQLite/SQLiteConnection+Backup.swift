import CSQLite
import Foundation
import Storage

extension SQLiteConnection {
    /// Copies this whole database into `destination` with SQLite's online backup API, inside one
    /// read transaction on this connection: the copy is a consistent snapshot, and in WAL mode
    /// writers on other connections go on committing meanwhile (they write to the WAL, not to
    /// the pages this snapshot reads, so the copy never restarts).
    ///
    /// The copy goes in steps of `pagesPerStep` pages, each flushed to disk (`flush`) before the
    /// next: one flush of the whole file at the end would hold the disk for seconds and stall
    /// every intake commit waiting for its own fsync behind it.
    func copy(into destination: SQLiteConnection, pagesPerStep: Int32, flush: () throws -> Void) throws {
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        // The read transaction starts with the first read, not with BEGIN.
        _ = try scalar("SELECT COUNT(*) FROM sqlite_master")
        // backup_init returns nil on failure, with the error on the destination connection.
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.error("start the backup", sqlite3_errcode(destination.handle))
        }
        var rc = SQLITE_OK
        var waits = 0
        while true {
            rc = sqlite3_backup_step(backup, pagesPerStep)
            if rc == SQLITE_OK {
                try flush()
                continue
            }
            // Busy or locked: another connection holds a lock the step needs for a moment; the
            // busy timeout does not cover backup steps.
            if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && waits < 500 {
                waits += 1
                sqlite3_sleep(10)
                continue
            }
            break
        }
        // finish returns the first error of the backup, or SQLITE_OK; it frees the backup either way.
        let finished = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE, finished == SQLITE_OK else {
            throw destination.error("copy the database", rc == SQLITE_DONE ? finished : rc)
        }
    }
}
