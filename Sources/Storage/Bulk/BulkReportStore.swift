import Foundation

/// Reports in bulk: moving an existing system's reports in, and the raw rows out for migration
/// and backup.
///
/// Concurrency contract: an import is one transaction under the same order as every other report
/// change (the writer lock on PostgreSQL, the single writer on SQLite), so counters and the audit
/// chain stay exact while the service runs. A backend may store the rows before it takes that
/// order when the batches say which area versions they were placed in (`ReportBatches.placedOn`);
/// the order then covers the counters, the audit entry and the check of the placement.
/// An import is never run again by the store after a failure: its batches are a stream, and a
/// second run would store only the rows after the first run's.
public protocol BulkReportStore: Sendable {
    /// Stores every report `batches` gives with its area rows and counter changes, and one
    /// audit entry for the whole import (`detail` of the number of reports), in one
    /// transaction: all or nothing. Bumps the data version.
    /// - Returns: the number of reports stored; 0 when `batches` gave none (nothing written).
    /// - Throws: `StorageError.conflict` when an id is already stored, `StalePlacement` when an
    ///   area layer was published after the batches were placed, or what `batches` threw; in
    ///   every case nothing is stored.
    func importReports(_ batches: any ReportBatches, actor: String, detail: @escaping @Sendable (Int) -> String) async throws -> Int

    /// Writes every report as `ReportCSV` rows, ordered by id, to `file`.
    /// - Returns: the number of reports written.
    func exportReports(to file: URL) async throws -> Int
}

extension BulkReportStore {
    /// Stores reports already in memory (see `importReports(_:actor:detail:)`); `detail` is the
    /// audit entry's reason as it is.
    public func importReports(_ records: [ReportRecord], actor: String, detail: String) async throws {
        _ = try await importReports(ReportArrayBatches(records), actor: actor) { _ in detail }
    }
}

/// The columns of a report row in a file, the same for export and import so that an export
/// imports back. A report that names an area rather than a location (a COVID report by hall)
/// carries that area in `area_layer` and `area_id`: its first assignment in layer order.
public enum ReportCSV {
    public static let columns = ["id", "kind", "status", "occurred_on", "submitted_at", "verified_on", "lon", "lat", "area_layer", "area_id",
                                 "group", "payload"]

    /// Appends one line of fields (with its newline) as RFC 4180 and PostgreSQL's CSV format
    /// write it: a field is quoted when it holds a comma, a quote, a line break or nothing (an
    /// empty text), with quotes doubled; nil (NULL) is nothing at all. Bytes, not `String`
    /// edits: an import writes a million of these.
    public static func append(_ values: [String?], to out: inout [UInt8]) {
        for (i, value) in values.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            guard let value else { continue }
            let utf8 = value.utf8
            let quoted = utf8.isEmpty || utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            guard quoted else {
                out.append(contentsOf: utf8)
                continue
            }
            out.append(UInt8(ascii: "\""))
            for b in utf8 {
                if b == UInt8(ascii: "\"") { out.append(b) }
                out.append(b)
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(10)
    }
}
