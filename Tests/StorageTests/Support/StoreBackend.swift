import Foundation
import Storage
import Testing
@testable import StoragePostgres
@testable import StorageSQLite

/// The backends the storage contract tests run against. Every suite takes a backend as its
/// argument, so a new backend adds a case here and runs the same tests unchanged.
enum StoreBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// A fresh, migrated store.
    func make(timeZone: TimeZone = TimeZone(identifier: "UTC")!) async throws -> TestStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoserve-storage-\(UUID().uuidString)")
        switch self {
        case .sqlite:
            let path = folder.appendingPathComponent("nested/store.sqlite").path
            let store = try SQLiteStore(path: path, timeZone: timeZone)
            try await store.migrate()
            return TestStore(backend: self, store: store, folder: folder, location: path, timeZone: timeZone)
        case .postgres:
            let database = try TestDatabase.create()
            let store = PostgresStore(location: database.location, timeZone: timeZone)
            try await store.migrate()
            return TestStore(backend: self, store: store, folder: folder, location: database.location, timeZone: timeZone, database: database)
        }
    }
}

/// One contract test's store, and what a test does to its database behind the store's back.
struct TestStore: Sendable {
    let backend: StoreBackend
    let store: any GeoserveStore
    let folder: URL
    /// The database: a file path for SQLite, a connection URI for PostgreSQL.
    let location: String
    let timeZone: TimeZone
    var database: TestDatabase?

    /// A second store on the same database, as another process would open it.
    func reopen() throws -> any GeoserveStore {
        switch backend {
        case .sqlite: try SQLiteStore(path: location, timeZone: timeZone)
        case .postgres: PostgresStore(location: location, timeZone: timeZone)
        }
    }

    /// Runs SQL directly on the database, as someone with write access to it could.
    func raw(_ sql: String) throws {
        switch backend {
        case .sqlite: try SQLiteConnection(path: location).execute(sql)
        case .postgres: try TestDatabase.execute(sql, at: location)
        }
    }

    /// Removes the triggers that keep the audit trail append-only, as the database's owner could.
    func dropAuditGuards() throws {
        switch backend {
        case .sqlite: try raw("DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete")
        case .postgres: try raw("DROP TRIGGER audit_no_update ON audit; DROP TRIGGER audit_no_delete ON audit")
        }
    }

    /// Removes the database.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
        database?.drop()
    }
}
