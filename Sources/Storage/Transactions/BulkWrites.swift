import Foundation

/// The writes of a bulk import, inside a transaction the backend has opened under the same order
/// as every other report change; the script is written once, below.
public protocol BulkWrites: StoreWrites {
    /// Stores the reports of `batches` and their area rows as they come.
    /// `StorageError.conflict` when an id is taken; what `batches` throws, unchanged.
    func insertReports(_ batches: any ReportBatches) throws
    /// Adds many counter changes at once (a backend may stream them rather than bind them).
    func writeBulkCounters(_ changes: CounterChanges) throws
    /// Takes the order of report changes if the transaction does not hold it yet (a backend that
    /// stored the rows before it, see `ReportBatches.placedOn`); holding it, does nothing.
    func takeWriterOrder() throws
    /// Each area layer's published version, read in the transaction (`StalePlacement.publishedVersionsSQL`).
    func publishedAreaVersions() throws -> [String: Int]
}

extension BulkWrites {
    /// Stores every report with its counter changes and one audit entry for the whole import (see
    /// `BulkReportStore.importReports`); with no reports, writes nothing and returns 0.
    public func importReports(_ batches: any ReportBatches, actor: String, detail: (Int) -> String) throws -> Int {
        let counting = CountedReportBatches(batches, zone: zone)
        try insertReports(counting)
        let stored = counting.counted
        guard stored.count > 0 else { return 0 }
        // From here on in the order of every report change: the counters, the audit chain and
        // the data version take their turn, and no version is published before the commit.
        try takeWriterOrder()
        if let placedOn = batches.placedOn {
            let published = try publishedAreaVersions()
            guard placedOn == published else { throw StalePlacement(placedOn: placedOn, published: published) }
        }
        try writeBulkCounters(stored.counters)
        try appendAudit(AuditFields(reportID: nil, actor: actor, at: Timestamp.now(), action: "import-reports", reason: detail(stored.count)))
        try bumpDataVersion()
        return stored.count
    }
}
