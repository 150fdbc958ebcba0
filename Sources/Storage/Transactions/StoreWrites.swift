import Foundation

/// The writes every change of the store ends with, inside a transaction the backend has opened.
public protocol StoreWrites {
    /// The time zone whose calendar days count (verification days, counter days).
    var zone: TimeZone { get }
    /// Appends an audit entry chained to the newest one.
    func appendAudit(_ fields: AuditFields) throws
    /// Adds the changes to the aggregate counters, in the same transaction as the change itself.
    func writeCounters(_ changes: CounterChanges) throws
    /// Moves the data version on: every cache and ETag keyed by it turns over.
    func bumpDataVersion() throws
}
