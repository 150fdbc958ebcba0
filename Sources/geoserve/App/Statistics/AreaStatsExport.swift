import Aggregation
import DomainKernel
import Foundation
import Storage

/// A researcher export of area statistics, shared by `GET /v1/exports/area-stats` and
/// `geoserve export`: parameters checked, the table built from the counters through the
/// researcher threshold, and the export recorded in the audit trail before anything leaves.
struct AreaStatsExport {
    /// What to export.
    struct Parameters: Sendable {
        var layer: String
        var from: Day
        var to: Day
        var bucket: Bucket = .day
        var kind: ReportKind?
        var basis: TimeBasis = .occurred

        var summary: String {
            "area-stats layer=\(layer) from=\(from.iso) to=\(to.iso) bucket=\(bucket.rawValue) kind=\(kind?.rawValue ?? "all") basis=\(basis.rawValue)"
        }
    }

    /// Where the numbers come from, for the sidecar or the JSON envelope.
    struct Provenance: Encodable, Sendable {
        let layer: String
        let layerVersion: Int
        let dataVersion: Int64
        let generatedAt: String
        let threshold: Int
        let audience = "researcher"
        let kind: ReportKind?
        let basis: String
        let bucket: String
        let from: String
        let to: String
        let timeZone: String
        let columns: [String: String]
    }

    /// The largest export, in rows: beyond it a request is refused rather than built.
    static let maxRows = 500_000

    let counters: any CounterStore
    /// Every export is recorded before anything leaves.
    let audit: any AuditLog
    let policy: DisclosurePolicy
    /// The campus zone the days are in, named in the provenance.
    let timeZone: TimeZone

    /// Checks the parameters against the layer; the error names the parameter.
    static func validate(_ p: Parameters, areaCount: Int) throws {
        guard p.from <= p.to else { throw APIError.badParameter("from must not be after to", field: "from") }
        guard p.to.days(since: p.from) <= 366 * 30 else { throw APIError.badParameter("the range may span at most 30 years", field: "to") }
        let buckets = p.bucket.ranges(from: p.from, to: p.to).count
        guard buckets * max(areaCount, 1) <= maxRows else {
            throw APIError.badParameter("the export would have \(buckets * areaCount) rows (at most \(maxRows)); use a longer bucket or a shorter range", field: "to")
        }
    }

    /// Builds the export for `actor` and records it in the audit trail.
    func run(_ p: Parameters, areaIDs: [String], denominators: [String: Double], layerVersion: Int, actor: String) async throws -> (ExportTable, Provenance) {
        try Self.validate(p, areaCount: areaIDs.count)
        let snapshot = try await counters.counterSnapshot(layer: p.layer, basis: p.basis)
        let dataVersion = snapshot.dataVersion
        let request = ExportRequest(layer: p.layer, kind: p.kind, basis: p.basis, from: p.from, to: p.to, bucket: p.bucket)
        let table = Export.table(request, areaIDs: areaIDs, counters: snapshot.cells, denominators: denominators, control: DisclosureControl(policy: policy))
        try await audit.recordEvent(actor: actor, action: "export", detail: p.summary + " rows=\(table.rows.count) data_version=\(dataVersion)")
        let provenance = Provenance(layer: p.layer, layerVersion: layerVersion, dataVersion: dataVersion,
                                    generatedAt: Date().formatted(.iso8601), threshold: table.threshold, kind: p.kind, basis: p.basis.rawValue,
                                    bucket: p.bucket.rawValue, from: p.from.iso, to: p.to.iso, timeZone: timeZone.identifier,
                                    columns: ExportTable.units)
        return (table, provenance)
    }
}
