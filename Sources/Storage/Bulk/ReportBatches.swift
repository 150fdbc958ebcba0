import Foundation
import Synchronization

/// Reports to import, handed to the store part by part while they are still being read,
/// checked and placed: a backend stores one part while the next is made, so reading a file and
/// storing it take about the longer of the two instead of their sum.
///
/// `next` is called from one thread at a time, in order. An error it throws (a file's bad rows)
/// ends the import: the store stops, rolls back and rethrows it unchanged.
public protocol ReportBatches: AnyObject, Sendable {
    /// The next reports in order; nil after the last.
    func next() throws -> [ReportRecord]?

    /// The published version of each area layer the reports are placed in, as the placement saw
    /// them (`ReportSubmission.placedOn`); nil when the reports were placed with the store's own
    /// order held (nothing can be published between their placement and the commit).
    ///
    /// With the versions known, a backend may store the rows before it takes the order of report
    /// changes, so that intake goes on while a large file streams in; the import then checks
    /// them against the versions published at its commit and refuses with `StalePlacement`,
    /// writing nothing, when another process published in between.
    var placedOn: [String: Int]? { get }
}

extension ReportBatches {
    public var placedOn: [String: Int]? { nil }
}

/// Reports already in memory, handed over in parts of `size`.
public final class ReportArrayBatches: ReportBatches {
    private let records: [ReportRecord]
    private let size: Int
    private let at = Mutex(0)

    public init(_ records: [ReportRecord], size: Int = 4096) {
        self.records = records
        self.size = max(1, size)
    }

    public func next() -> [ReportRecord]? {
        at.withLock { at in
            guard at < records.count else { return nil }
            defer { at = min(records.count, at + size) }
            return Array(records[at..<min(records.count, at + size)])
        }
    }
}

/// Batches passed through on their way to a backend, counted as they pass: the number of
/// reports and their counter changes, worked out on whichever thread the backend reads them from
/// (PostgreSQL's encoding thread, beside the server's work). The rule is the script's, so no
/// backend counts for itself.
final class CountedReportBatches: ReportBatches {
    private let batches: any ReportBatches
    private let tally: Mutex<(count: Int, counters: CounterChanges)>

    init(_ batches: any ReportBatches, zone: TimeZone) {
        self.batches = batches
        tally = Mutex((0, CounterChanges(zone: zone)))
    }

    func next() throws -> [ReportRecord]? {
        guard let records = try batches.next() else { return nil }
        tally.withLock { t in
            t.count += records.count
            for r in records { t.counters.add(from: nil, to: r) }
        }
        return records
    }

    var placedOn: [String: Int]? { batches.placedOn }

    /// The reports passed so far and their counter changes.
    var counted: (count: Int, counters: CounterChanges) { tally.withLock { $0 } }
}
