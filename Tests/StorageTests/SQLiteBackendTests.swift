import CSQLite
import Foundation
import Storage
import Testing
@testable import StorageSQLite

@Suite("SQLite backend")
struct SQLiteBackendTests {
    @Test("an unopenable path fails with a clear error naming the path")
    func cannotOpen() {
        #expect {
            try SQLiteStore(path: "/proc/geoserve/store.sqlite")
        } throws: { error in
            guard case StorageError.cannotOpen(let what) = error else { return false }
            return what.contains("/proc/geoserve/store.sqlite")
        }
    }

    @Test("a bulk change (a counter rebuild) leaves the write-ahead log empty, so the next process to open the store neither reads it back nor copies it again")
    func bulkChangeEmptiesTheLog() async throws {
        let t = try await StoreBackend.sqlite.make()
        defer { t.remove() }
        let log = t.location + "-wal"
        func logBytes() throws -> Int { try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int ?? -1 }
        try await t.store.probeWrite(bytes: 0)
        #expect(try logBytes() > 0, "an ordinary commit stays in the log until a checkpoint")
        _ = try await t.store.rebuildCounters()
        #expect(try logBytes() == 0)
        try await t.store.probeWrite(bytes: 0)
        #expect(try logBytes() > 0)
    }

    @Test("SQLite counts no memory: its statistics, a global mutex on every allocation, are off before the first connection")
    func memoryStatisticsOff() async throws {
        let t = try await StoreBackend.sqlite.make()
        defer { t.remove() }
        try await t.store.probeWrite(bytes: 0)
        // With the statistics on, a migration and a write leave hundreds of kilobytes counted.
        #expect(sqlite3_memory_used() == 0)
        #expect(sqlite3_memory_highwater(0) == 0)
    }

    @Test("the schema version is the newest migration's")
    func latest() async throws {
        let t = try await StoreBackend.sqlite.make()
        defer { t.remove() }
        #expect(try await t.store.migrate() == SQLiteMigrations.latest)
    }
}
