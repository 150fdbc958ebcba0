import Aggregation
import DomainKernel
import Foundation
import Storage

/// A researcher export of area statistics, shared by `GET /v1/exports/area-stats` and
/// `geoserve export`: parameters checked, the table built from the newest publication's released
/// blocks — the same cells the public numbers are sums of, so an export adds nothing an attacker
/// holding every public number could difference against — and the export recorded in the audit
/// trail before anything leaves.
package struct AreaStatsExport {
    /// What to export.
    package struct Parameters: Sendable {
        var layer: String
        var from: Day
        var to: Day
        var bucket: Bucket = .day
        /// nil: COVID cases.
        var kind: ReportKind?
        /// Refused when given: published numbers have one basis, the day of release.
        var basis: TimeBasis?

        package init(layer: String, from: Day, to: Day, bucket: Bucket = .day, kind: ReportKind? = nil, basis: TimeBasis? = nil) {
            self.layer = layer
            self.from = from
            self.to = to
            self.bucket = bucket
            self.kind = kind
            self.basis = basis
        }

        var summary: String {
            "area-stats layer=\(layer) from=\(from.iso) to=\(to.iso) bucket=\(bucket.rawValue) kind=\((kind ?? StatisticsView.defaultPublicKind).rawValue)"
        }
    }

    /// Where the numbers come from, for the sidecar or the JSON envelope.
    package struct Provenance: Encodable, Sendable {
        let layer: String
        let layerVersion: Int
        /// The publication the numbers come from; nil before the first (then every count is 0).
        package let publication: Int64?
        let publicationDay: String?
        let generatedAt: String
        package let threshold: Int
        let audience = "researcher"
        let kind: ReportKind
        let basis: String
        let bucket: String
        let from: String
        let to: String
        let timeZone: String
        let columns: [String: String]
        /// How reports are counted where areas changed, in plain words (docs/privacy.md).
        let counting = "Each report counts in the area it was in when a publication first counted it; a later change of the areas does not move it. Reports counted after a change follow the new map."
    }

    /// The largest export, in rows: beyond it a request is refused rather than built.
    static let maxRows = 500_000

    let publications: PublicationBook
    /// Every export is recorded before anything leaves.
    let audit: any AuditLog
    let policy: DisclosurePolicy
    /// The campus zone the days are in, named in the provenance.
    let timeZone: TimeZone

    package init(publications: PublicationBook, audit: any AuditLog, policy: DisclosurePolicy, timeZone: TimeZone) {
        self.publications = publications
        self.audit = audit
        self.policy = policy
        self.timeZone = timeZone
    }

    /// Checks the parameters against the layer; the error names the parameter.
    static func validate(_ p: Parameters, areaCount: Int) throws(ParameterRefused) {
        if p.basis != nil { throw StatisticsView.basisRefused }
        guard p.from <= p.to else { throw ParameterRefused("from must not be after to", field: "from") }
        guard p.to.days(since: p.from) <= 366 * 30 else { throw ParameterRefused("the range may span at most 30 years", field: "to") }
        let buckets = p.bucket.ranges(from: p.from, to: p.to).count
        guard buckets * max(areaCount, 1) <= maxRows else {
            throw ParameterRefused("the export would have \(buckets * areaCount) rows (at most \(maxRows)); use a longer bucket or a shorter range", field: "to")
        }
    }

    /// Builds the export for `actor` and records it in the audit trail.
    package func run(_ p: Parameters, areaIDs: [String], denominators: [String: Double], layerVersion: Int, actor: String) async throws -> (ExportTable, Provenance) {
        try Self.validate(p, areaCount: areaIDs.count)
        let kind = p.kind ?? StatisticsView.defaultPublicKind
        let publication = publications.latest
        let blocks = publication.map { publications.blocks(through: $0.id) } ?? []
        let request = ExportRequest(layer: p.layer, kind: kind, basis: PublishedStatistics.basis, from: p.from, to: p.to, bucket: p.bucket)
        // Released blocks need no further suppression: every cell is shown.
        let table = Export.table(request, areaIDs: areaIDs, counters: PublishedStatistics.cells(layer: p.layer, kind: kind, blocks: blocks),
                                 denominators: denominators, control: DisclosureControl(policy: DisclosurePolicy(thresholds: [.researcher: 1])))
        try await audit.recordEvent(actor: actor, action: "export", detail: p.summary + " rows=\(table.rows.count) publication=\(publication?.id ?? 0)")
        let provenance = Provenance(layer: p.layer, layerVersion: layerVersion, publication: publication?.id, publicationDay: publication?.day.iso,
                                    generatedAt: Date().formatted(.iso8601), threshold: StatisticsService.threshold(of: kind, k: publication?.k, policy: policy), kind: kind, basis: "published",
                                    bucket: p.bucket.rawValue, from: p.from.iso, to: p.to.iso, timeZone: timeZone.identifier,
                                    columns: ExportTable.units)
        return (table, provenance)
    }
}
