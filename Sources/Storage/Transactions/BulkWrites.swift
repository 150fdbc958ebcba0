import Foundation

/// The writes of a bulk import, inside a transaction the backend has opened under the same order
/// as every other report change; the script is written once, below.
public protocol BulkWrites: StoreWrites {
    /// Inserts the reports and their area rows; `StorageError.conflict` when an id is taken.
    func insertReports(_ records: [ReportRecord]) throws
    /// Adds many counter changes at once (a backend may stream them rather than bind them).
    func writeBulkCounters(_ changes: CounterChanges) throws
}

extension BulkWrites {
    /// Stores every record with its counter changes and one audit entry for the whole import (see
    /// `BulkReportStore.importReports`).
    public func importReports(_ records: [ReportRecord], actor: String, detail: String) throws {
        try insertReports(records)
        var counters = CounterChanges(zone: zone)
        for r in records { counters.add(from: nil, to: r) }
        try writeBulkCounters(counters)
        try appendAudit(AuditFields(reportID: nil, actor: actor, at: Timestamp.now(), action: "import-reports", reason: detail))
        try bumpDataVersion()
    }
}
