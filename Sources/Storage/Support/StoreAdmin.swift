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

    /// Succeeds when the database takes a committed, durable write of at least `bytes` (kept only
    /// for the moment it takes): how readiness learns that a full disk has room again. A small
    /// row fits where a report does not (a rolled-back import's log filled a disk to within a
    /// page, every submission got 507 and readiness said 200), so readiness asks for the room of
    /// the largest report.
    func probeWrite(bytes: Int) async throws

    /// The store's tables that another transaction holds so that every read of them waits until
    /// it commits: on PostgreSQL, an installation's first import (it builds the empty tables'
    /// indexes after their rows) or a counter rebuild that replaces the table. Readiness says so
    /// rather than answer ready while pages wait into the serving timeout. Empty where readers
    /// never wait for a writer (SQLite).
    func exclusiveHolds() async throws -> [String]

    /// Every object of the store's schema that differs from what its migrations make up to its
    /// schema version (`SchemaDifference`); empty for a schema as the migrations made it.
    /// - Throws: `SchemaCheckUnavailable` when the comparison cannot be made.
    func schemaDifferences() async throws -> [SchemaDifference]
}
