/// The store's schema and liveness.
///
/// Concurrency contract: `migrate` may be called by several processes starting together; each
/// migration is applied exactly once, in its own transaction, and a process that finds a schema
/// newer than it knows refuses to run (`StorageError.schemaTooNew`).
public protocol StoreAdmin: Sendable {
    /// Applies the migrations this program knows that the database lacks.
    /// - Returns: the schema version after migrating.
    @discardableResult
    func migrate() async throws -> Int

    /// Succeeds when the database answers.
    func ping() async throws

    /// Succeeds when the database takes a write (a committed, durable one): how readiness learns
    /// that a full disk has room again.
    func probeWrite() async throws
}
