/// Random secrets of the installation, such as the key that derives receipt tokens.
///
/// Concurrency contract: the first reader creates the secret and every later reader, in any
/// process sharing the store, gets the same value (create-if-absent is atomic).
public protocol SecretStore: Sendable {
    /// The secret with this name, as 64 hex digits; created on first use, then stable.
    func secret(named name: String) async throws -> String
}
