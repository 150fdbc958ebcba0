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

    static let parameters: Set<String> = ["layer", "from", "to", "bucket", "kind", "basis", "format"]

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.group("exports").add(middleware: RequirePermission(.exportStatistics))
            .get("area-stats") { request, context in try await areaStats(request, context) }
    }

    func areaStats(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let q = request.uri.queryParameters
        try APIError.refuseUnknownParameters(request, allowed: Self.parameters)
        guard let name = q["layer"].map({ String($0) }) else { throw APIError.invalid("layer is required", field: "layer") }
        guard let layer = catalog.snapshot()[name], layer.areaIndex != nil else { throw APIError.notFound("no area layer \"\(name)\"") }
        func day(_ field: String) throws -> Day {
            guard let raw = q[Substring(field)] else { throw APIError.invalid("\(field) is required (YYYY-MM-DD)", field: field) }
            guard let d = Day(iso: String(raw)) else { throw APIError.invalid("\(field) must be a date YYYY-MM-DD", field: field) }
            return d
        }
        var p = AreaStatsExport.Parameters(layer: name, from: try day("from"), to: try day("to"))
        if let raw = q["bucket"] {
            guard let b = Bucket(rawValue: String(raw)) else { throw APIError.invalid("bucket must be day, week or month", field: "bucket") }
            p.bucket = b
        }
        if let raw = q["kind"] {
            guard let kind = ReportKind(rawValue: String(raw)) else { throw APIError.invalid("kind must be covid or misconduct", field: "kind") }
            p.kind = kind
        }
        if let raw = q["basis"] {
            guard let b = TimeBasis(rawValue: String(raw)) else { throw APIError.invalid("basis must be occurred, submitted or verified", field: "basis") }
            p.basis = b
        }
        let format = q["format"].map { String($0) } ?? "csv"
        guard format == "csv" || format == "json" else { throw APIError.invalid("format must be csv or json", field: "format") }
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
        headers[HTTPField.Name("X-Data-Version")!] = String(provenance.dataVersion)
        headers[HTTPField.Name("X-Disclosure-Threshold")!] = String(provenance.threshold)
        headers[HTTPField.Name("X-Layer-Version")!] = String(provenance.layerVersion)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: table.csv())))
    }
}
