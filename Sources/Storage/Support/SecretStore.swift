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

