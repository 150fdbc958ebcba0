import Foundation
import Storage

extension PostgresStore: SecretStore {
    public func secret(named name: String, ifAbsent candidate: String) async throws -> String {
        try await pool.transaction("read a secret") { db in
            // Create-if-absent in one statement: of two processes starting at once, the first
            // insert wins and both read its value.
            try db.query("INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [.text(name), .text(candidate)])
            guard let value = try db.query("SELECT value FROM secrets WHERE name = $1", [.text(name)]).firstText else {
                throw StorageError.unreadable("secret \(name)")
            }
            return value
        }
    }

    public func existingSecret(named name: String) async throws -> String? {
        try await pool.run("read a secret") { db in try db.query("SELECT value FROM secrets WHERE name = $1", [.text(name)]).firstText }
    }

    public func removeSecret(named name: String) async throws {
        try await pool.run("remove a secret", retry: .never) { db in
            try db.query("DELETE FROM secrets WHERE name = $1", [.text(name)])
            return ()
        }
    }
}
