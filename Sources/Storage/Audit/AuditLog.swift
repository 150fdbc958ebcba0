import DomainKernel
import Foundation

/// The append-only audit trail: reads of it, its integrity check, and events that concern no
/// single report.
///
/// Concurrency contract: the trail is one hash chain over every entry of the installation, so
/// appends must be totally ordered — each entry is written in the same transaction as the change
/// it records and links to the entry committed just before it. SQLite's single writer gives this
/// order; a backend with concurrent writers takes a lock on the chain's tail inside the writing
/// transaction.
public protocol AuditLog: Sendable {
    /// The audit entries of one report, oldest first.
    func history(reportID: String) async throws -> [AuditEntry]

    /// Recomputes the chain; returns the sequence number of the first entry that does not
    /// match, or nil when the chain is intact.
    func verifyAuditChain() async throws -> Int?

    /// Records an event that concerns no single report (an export, a counter rebuild), chained
    /// like every other entry.
    func recordEvent(actor: String, action: String, detail: String) async throws

    /// The events of one action that concern no single report, oldest first.
    func events(action: String) async throws -> [AuditEntry]

    /// Keeps every entry appended from now on with `key`, and checks the chain with it.
    func useAuditKey(_ key: AuditKey) async throws

    /// The newest entry's sequence number and hash (`AuditTail.start` for an empty trail).
    func auditHead() async throws -> AuditTail

    /// The stored hash of the entry with this sequence number, nil when there is none.
    func auditHash(sequence: Int) async throws -> String?
}
