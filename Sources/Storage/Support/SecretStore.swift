import GeoCore

/// Values the installation keeps in its store: today the fingerprint of its key file (the keys
/// themselves live outside the database), and, in stores from before the key file, the
/// receipts secret it was created from.
///
/// Concurrency contract: create-if-absent is atomic; every reader, in any process sharing the
/// store, gets the value the first writer stored.
public protocol SecretStore: Sendable {
    /// The value stored under `name`, storing `candidate` first when there is none.
    func secret(named name: String, ifAbsent candidate: String) async throws -> String

    /// The value stored under `name`, nil when there is none.
    func existingSecret(named name: String) async throws -> String?

    /// Removes the value stored under `name`, if any.
    func removeSecret(named name: String) async throws
}

extension SecretStore {
    /// A random secret (64 hex digits) stored under `name` on first use, then stable.
    public func secret(named name: String) async throws -> String {
        var rng = SystemRandomNumberGenerator()
        return try await secret(named: name, ifAbsent: (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }.hexString)
    }
}
