import CSQLite
import Storage

extension SQLiteConnection {
    /// Copies this whole database into `destination` with SQLite's online backup API, in one
    /// step: the copy is one read transaction on this database, so it is a consistent snapshot,
    /// and in WAL mode writers on other connections go on committing meanwhile.
    func copy(into destination: SQLiteConnection) throws(StorageError) {
        // backup_init returns nil on failure, with the error on the destination connection.
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.error("start the backup", sqlite3_errcode(destination.handle))
        }
        // -1: every page in one step. Busy or locked means another connection holds a lock the
        // copy needs for a moment; the busy timeout does not cover backup steps, so wait here.
        var rc = sqlite3_backup_step(backup, -1)
        var waits = 0
        while (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && waits < 500 {
            sqlite3_sleep(10)
            waits += 1
            rc = sqlite3_backup_step(backup, -1)
        }
        // finish returns the first error of the backup, or SQLITE_OK; it frees the backup either way.
        let finished = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE, finished == SQLITE_OK else {
            throw destination.error("copy the database", rc == SQLITE_DONE ? finished : rc)
        }
    }
}
