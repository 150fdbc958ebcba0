import Aggregation
import DomainKernel
import Foundation
import HTTPTypes
import Hummingbird
import ReportVerification
import Storage

/// `GET /v1/exports/area-stats`: disclosure-controlled statistics per area and bucket for
/// researchers, as CSV (provenance in response headers) or JSON (provenance in the envelope).
struct ExportsController {
    let export: AreaStatsExport
    let catalog: LayerCatalog

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.group("exports").add(middleware: RequirePermission(.exportStatistics))
            .get("area-stats") { request, context in try await areaStats(request, context) }
    }

    func areaStats(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let q = try QueryValues(request, QueryParameters.export)
        let name = q.text(QueryParameters.exportLayer)!
        guard let layer = catalog.snapshot()[name], layer.areaIndex != nil else { throw APIError.notFound("no area layer \"\(name)\"") }
        var p = AreaStatsExport.Parameters(layer: name, from: q.day(QueryParameters.from)!, to: q.day(QueryParameters.to)!)
        p.bucket = q.value(QueryParameters.bucket) ?? .day
        p.kind = q.value(QueryParameters.kind)
        p.basis = q.value(QueryParameters.basis)
        let format = q.text(QueryParameters.exportFormat) ?? "csv"
        let (table, provenance) = try await export.run(p, areaIDs: layer.encoded.ids, denominators: layer.denominators,
                                                       layerVersion: layer.info.version, actor: context.account?.id ?? "anonymous")
        var headers = HTTPFields()
        headers[.cacheControl] = Conditional.privateCaching
        if format == "json" {
            struct Envelope: Encodable {
                let provenance: AreaStatsExport.Provenance
                let rows: [Row]
            }
            struct Row: Encodable {
                let areaId: String
                let bucketStart: String
                let bucketEnd: String
                let verified: Int?
                let ratePer1000: Double?
                let suppressed: Bool
            }
            let rows = table.rows.map { r in
                Row(areaId: r.areaID, bucketStart: r.bucketStart.iso, bucketEnd: r.bucketEnd.iso, verified: r.verified.value,
                    ratePer1000: r.ratePer1000?.value.map { ($0 * 1000).rounded() / 1000 }, suppressed: r.verified.isSuppressed)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(Envelope(provenance: provenance, rows: rows)))))
        }
        headers[.contentType] = "text/csv; charset=utf-8; header=present"
        headers[.contentDisposition] = "attachment; filename=\"\(name)-\(p.from.iso)-\(p.to.iso)-\(p.bucket.rawValue).csv\""
        headers[HTTPField.Name("X-Publication")!] = provenance.publication.map(String.init) ?? "none"
        headers[HTTPField.Name("X-Disclosure-Threshold")!] = String(provenance.threshold)
        headers[HTTPField.Name("X-Layer-Version")!] = String(provenance.layerVersion)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: table.csv())))
    }
}
