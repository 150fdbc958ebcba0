import Foundation
import GeoCore
import Storage

extension PostgresStore: SecretStore {
    public func secret(named name: String) async throws -> String {
        var rng = SystemRandomNumberGenerator()
        let candidate = (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }.hexString
        return try await pool.transaction("read a secret") { db in
            // Create-if-absent in one statement: of two processes starting at once, the first
            // insert wins and both read its value.
            try db.query("INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [.text(name), .text(candidate)])
            guard let value = try db.query("SELECT value FROM secrets WHERE name = $1", [.text(name)]).firstText else {
                throw StorageError.unreadable("secret \(name)")
            }
            return value
        }
    }
}
