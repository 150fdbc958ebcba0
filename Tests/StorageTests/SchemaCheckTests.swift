import Foundation
import Storage
import Testing
@testable import StoragePostgres

/// A store's schema compared with what its migrations make: a restored dump or a changed
/// database can carry code that runs with the service's writes.
@Suite("schema check")
struct SchemaCheckTests {
    @Test("a store as the migrations made it, and after an import that built its indexes again, shows no difference", arguments: StoreBackend.allCases)
    func asMade(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        #expect(try await t.store.schemaDifferences() == [])
        _ = try await t.store.importReports(ImportBesideIntakeTests.records("r", 50), actor: "test", detail: "rows")
        #expect(try await t.store.schemaDifferences() == [])
        // Nothing of the check's reference is left behind.
        if backend == .postgres {
            let schemas = try PostgresSchemas.count(t.location)
            #expect(schemas == 0, "reference schemas left: \(schemas)")
        }
    }

    /// What someone with the database owner's rights can plant, and what the check must name.
    static let tampers: [(sql: String, expected: [String])] = [
        // A researcher who signs in becomes an admin.
        ("""
         CREATE FUNCTION promote() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE accounts SET role = 'admin' WHERE id = NEW.account_id; RETURN NEW; END $$;
         CREATE TRIGGER promote AFTER INSERT ON tokens FOR EACH ROW EXECUTE FUNCTION promote()
         """, ["function promote(): not made by any migration", "trigger tokens.promote: not made by any migration"]),
        ("DROP TRIGGER audit_no_update ON audit", ["trigger audit.audit_no_update: missing"]),
        ("ALTER TABLE audit DISABLE TRIGGER audit_no_delete", ["trigger audit.audit_no_delete: changed"]),
        ("""
         CREATE OR REPLACE FUNCTION geoserve_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN OLD; END $$
         """, ["function geoserve_audit_append_only(): changed"]),
        ("CREATE RULE tell AS ON INSERT TO reports DO ALSO NOTIFY elsewhere", ["rule reports.tell: not made by any migration"]),
        ("CREATE TABLE sqlitexnotes (x text)", ["table sqlitexnotes: not made by any migration"]),
        ("ALTER TABLE accounts ALTER COLUMN role SET DEFAULT 'admin'", ["table accounts: changed"]),
        ("CREATE VIEW everything AS SELECT * FROM reports", ["view everything: not made by any migration"]),
    ]

    @Test("PostgreSQL: each planted object, dropped or disabled trigger and changed function or column is named", arguments: 0..<tampers.count)
    func tampered(index: Int) async throws {
        let t = try await StoreBackend.postgres.make()
        defer { t.remove() }
        try t.raw(Self.tampers[index].sql)
        let found = try await t.store.schemaDifferences().map(\.description)
        #expect(found == Self.tampers[index].expected)
    }
}

/// The check's reference schemas left in a database (none, if the rollback works).
enum PostgresSchemas {
    static func count(_ location: String) throws -> Int {
        Int(try PostgresConnection(location: location, settings: [])
            .query("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'geoserve\\_reference\\_%'", prepare: false).int(0, 0))
    }
}

/// A stored row that does not read back names its layer, version and area.
@Suite("stored rows")
struct StoredRowTests {
    @Test("a stored geometry with a number out of range is refused, naming the layer, version and area")
    func unreadableNamesItself() {
        let geometry = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1e-400],[0,1],[0,0]]]}"#
        let refused = #expect(throws: StoredArea.Unreadable.self) {
            _ = try StoredArea.read(rows: [(id: "H07", name: nil, properties: "{}", geometry: geometry)], layer: "halls", version: 3)
        }
        #expect(refused?.description.hasPrefix("layer halls version 3, area H07: the stored row does not read back") == true, "\(String(describing: refused))")
    }
}
