import DomainKernel
import Foundation
import GeoCore
import Storage

extension SQLiteStore: SecretStore {
    public func secret(named name: String) async throws -> String {
        try await run { db in
            try db.transaction {
                if let v = try db.prepare("SELECT value FROM secrets WHERE name = ?").bind(.text(name)).firstText() { return v }
                var rng = SystemRandomNumberGenerator()
                let value = (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }.hexString
                try db.prepare("INSERT INTO secrets (name, value) VALUES (?, ?)").bind(.text(name), .text(value)).run()
                return value
            }
        }
    }
}
