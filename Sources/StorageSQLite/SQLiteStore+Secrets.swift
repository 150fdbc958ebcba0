import DomainKernel
import Foundation
import Storage

extension SQLiteStore: SecretStore {
    public func secret(named name: String, ifAbsent candidate: String) async throws -> String {
        try await run { db in
            try db.transaction {
                if let v = try db.prepare("SELECT value FROM secrets WHERE name = ?").bind(.text(name)).firstText() { return v }
                try db.prepare("INSERT INTO secrets (name, value) VALUES (?, ?)").bind(.text(name), .text(candidate)).run()
                return candidate
            }
        }
    }

    public func existingSecret(named name: String) async throws -> String? {
        try await run { db in try db.prepare("SELECT value FROM secrets WHERE name = ?").bind(.text(name)).firstText() }
    }

    public func removeSecret(named name: String) async throws {
        try await run { db in try db.prepare("DELETE FROM secrets WHERE name = ?").bind(.text(name)).run() }
    }
}
