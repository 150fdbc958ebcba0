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

    @Test("the schema version is the newest migration's")
    func latest() async throws {
        let t = try await StoreBackend.sqlite.make()
        defer { t.remove() }
        #expect(try await t.store.migrate() == SQLiteMigrations.latest)
    }
}
