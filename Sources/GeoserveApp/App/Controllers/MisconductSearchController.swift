import GeoCore
import DomainKernel
import Foundation
import Hummingbird
import ReportVerification
import Storage

/// Public misconduct search: verified reports in an area or within a circle, showing only the
/// fields `ReportKind.misconduct` declares public (officer and incident descriptions, the day,
/// the area) — never names, badge numbers, witnesses, victims, contacts, locations or attachments.
///
/// Verified misconduct reports are public records (`DisclosurePolicy.publicRecordKinds`): the
/// search lists exactly the reports the newest publication counts, so the list and the published
/// counts never disagree, and a verification shows up in both at the next publication. A
/// revoked report leaves the list at once: taking a record down is never a disclosure.
struct MisconductSearchController {
    let search: any PublicReportSearch
    let publications: PublicationBook
    /// Reports are matched by the centre of a 1 km cell: searches learn at most the cell, a
    /// neighbourhood rather than a doorstep (at least 500 m, as the security review asked).
    static let cellSize = 1_000.0

    struct Results: ResponseEncodable {
        let reports: [PublicMisconductReport]
    }

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.get("misconduct") { request, context in try Self.publicResponse(try await inArea(request), request, context) }
        v1.get("misconduct/near") { request, context in try Self.publicResponse(try await near(request), request, context) }
    }

    private static func publicResponse(_ results: Results, _ request: Request, _ context: AppRequestContext) throws -> Response {
        var response = try results.response(from: request, context: context)
        response.headers[.cacheControl] = "public, max-age=60"
        return response
    }

    /// `GET /v1/misconduct?layer=…&area=…`: the verified reports placed in an area.
    func inArea(_ request: Request) async throws -> Results {
        let q = try QueryValues(request, QueryParameters.misconductInArea)
        let layer = q.text(QueryParameters.searchLayer)!
        let records = try await search.verifiedReports(kind: .misconduct, layer: layer, areaID: q.text(QueryParameters.searchArea)!,
                                                       publishedBy: publications.latest, limit: q.int(QueryParameters.searchLimit)!)
        return results(records, layer: layer)
    }

    /// `GET /v1/misconduct/near?lon=…&lat=…&radius_m=…`: the verified reports whose coarse cell's
    /// centre lies within the circle. Never the exact point: see `CoarseCell`.
    func near(_ request: Request) async throws -> Results {
        let q = try QueryValues(request, QueryParameters.misconductNear)
        let (lon, lat, radius) = (q.number(QueryParameters.lon)!, q.number(QueryParameters.lat)!, q.number(QueryParameters.radius)!)
        // The stored points are exact, so the box reaches as far as any point whose cell's centre
        // can lie inside the circle.
        let dLat = (radius + CoarseCell.reach(size: Self.cellSize)) / 111_195 * 1.01
        let dLon = dLat / max(cos(lat * .pi / 180), 0.01)
        var records = try await search.verifiedReports(kind: .misconduct, within: (lon - dLon, lat - dLat, lon + dLon, lat + dLat),
                                                       publishedBy: publications.latest, limit: 5_000)
        records = records.filter { r in
            guard let rl = r.lon, let rt = r.lat else { return false }
            let centre = CoarseCell(lon: rl, lat: rt, size: Self.cellSize).centre
            return greatCircleMetres(lon1: lon, lat1: lat, lon2: centre.lon, lat2: centre.lat) <= radius
        }
        return results(Array(records.prefix(q.int(QueryParameters.searchLimit)!)), layer: q.text(QueryParameters.resultLayer))
    }

    /// The public projection of each report (the store returned published ones only), with its
    /// area in `layer` (else its first area).
    private func results(_ records: [ReportRecord], layer: String?) -> Results {
        let decoder = JSONDecoder()
        return Results(reports: records.compactMap { r in
            guard case .misconduct(let m)? = try? decoder.decode(Report.self, from: r.payload) else { return nil }
            let assignment = r.areas.first { $0.layer == layer } ?? r.areas.first
            return PublicMisconductReport(m, layer: assignment?.layer, areaID: assignment?.areaID)
        })
    }
}
