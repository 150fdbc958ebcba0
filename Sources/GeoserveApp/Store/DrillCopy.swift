import Foundation
import Storage

/// A store restored for a drill: a copy of production that must not act as production. Served,
/// it sends no status notifications (its outbox holds events production may already have sent,
/// and receivers would get them twice) and makes no scheduled publications (a publication is a
/// public, dated release). `geoserve restore` marks what it restores; a PostgreSQL database
/// restored with `pg_restore` is marked with `geoserve drill mark`. `geoserve drill promote`
/// makes a copy the installation's store again.
package enum DrillCopy {
    static let marker = "drill_copy"

    /// Marks the store a drill copy, restored at `at` (kept if it already was one).
    package static func mark(_ store: any SecretStore, at: Date) async throws {
        _ = try await store.secret(named: marker, ifAbsent: ISO8601DateFormatter().string(from: at))
    }

    /// Ends the drill: the store acts as production again. Whether it was a drill copy.
    @discardableResult
    package static func promote(_ store: any SecretStore) async throws -> Bool {
        guard try await since(store) != nil else { return false }
        try await store.removeSecret(named: marker)
        return true
    }

    /// When the store was marked a drill copy; nil for a production store.
    package static func since(_ store: any SecretStore) async throws -> String? {
        try await store.existingSecret(named: marker)
    }
}
