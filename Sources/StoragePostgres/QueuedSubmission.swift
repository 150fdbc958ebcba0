import DomainKernel
import Foundation
import Storage

/// A submission waiting for its group commit, with its rows already encoded as elements of
/// PostgreSQL `text[]` literals and its counter changes worked out. Made when it is queued, on
/// the request's own task: a batch holds the writer lock while it is assembled, and encoding
/// 16 reports there took about a third of the 0.16 ms the lock was held outside PostgreSQL.
struct QueuedSubmission: Sendable {
    let job: IntakeJob
    /// The reports table's columns in `PostgresStore.storeBatch`'s insert order.
    let reportColumns: [[UInt8]]
    static let reportColumnCount = 14
    /// Per area row: report id, layer, layer version, area id.
    let areaRows: [[[UInt8]]]
    let audit: AuditFields
    let counters: CounterChanges

    init(_ job: IntakeJob, zone: TimeZone) {
        self.job = job
        let s = job.submission, r = s.record
        let row: [String?] = [r.id, r.kind.rawValue, r.status.rawValue, String(r.version), r.reporterID, r.reporterID ?? "anonymous",
                              s.idempotencyKey, r.occurredOn.iso, Timestamp.format(r.submittedAt), r.lon.map { "\($0)" }, r.lat.map { "\($0)" },
                              String(decoding: r.payload, as: UTF8.self), BreakdownGroup.column(r.group), s.requestDigest]
        reportColumns = row.map(TextArray.element)
        areaRows = r.areas.map { a in [r.id, a.layer, String(a.layerVersion), a.areaID].map(TextArray.element) }
        audit = AuditFields(reportID: r.id, actor: r.reporterID ?? "anonymous", at: Timestamp.format(r.submittedAt), action: "submit", to: r.status)
        counters = CounterChanges(zone: zone, from: nil, to: r)
    }
}
