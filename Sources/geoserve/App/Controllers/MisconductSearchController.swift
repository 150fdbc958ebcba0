import DomainKernel
import Foundation
import GeoCore
import Hummingbird
import ReportVerification
import Storage

/// Public misconduct search: verified reports by area or around a point, showing only the
/// fields `ReportKind.misconduct` declares public (officer and incident descriptions, the day,
/// the area) — never names, badge numbers, witnesses, victims, contacts, locations or attachments.
struct MisconductSearchController {
    let search: any PublicReportSearch
    /// Smaller circles would let repeated searches close in on a report's exact location.
    static let radiusRange = 250.0...50_000.0

    struct Results: ResponseEncodable {
        let reports: [PublicMisconductReport]
    }

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.get("misconduct") { request, context in
            var response = try await search(request).response(from: request, context: context)
            response.headers[.cacheControl] = "public, max-age=60"
            return response
        }
    }

    func search(_ request: Request) async throws -> Results {
        let q = try QueryValues(request, QueryParameters.misconduct)
        let limit = q.int(QueryParameters.searchLimit)!
        let preferredLayer = q.text(QueryParameters.searchLayer)
        var records: [ReportRecord]
        if let parts = q.numbers(QueryParameters.near) {
            guard (try? Position(lon: parts[0], lat: parts[1])) != nil else {
                throw APIError.badParameter("near is lon,lat in degrees (lon -180 to 180, lat -90 to 90)", field: "near")
            }
            guard let radius = q.number(QueryParameters.radius) else {
                throw APIError.badParameter("near needs radius_m, from \(Int(Self.radiusRange.lowerBound)) to \(Int(Self.radiusRange.upperBound)) metres", field: "radius_m")
            }
            let (lon, lat) = (parts[0], parts[1])
            let dLat = radius / 111_195 * 1.01
            let dLon = dLat / max(cos(lat * .pi / 180), 0.01)
            records = try await search.verifiedReports(kind: .misconduct, within: (lon - dLon, lat - dLat, lon + dLon, lat + dLat), limit: 5_000)
            records = records.filter { r in
                guard let rl = r.lon, let rt = r.lat else { return false }
                return greatCircleMetres(lon1: lon, lat1: lat, lon2: rl, lat2: rt) <= radius
            }
            records = Array(records.prefix(limit))
        } else if let layer = preferredLayer, let area = q.text(QueryParameters.searchArea) {
            records = try await search.verifiedReports(kind: .misconduct, layer: layer, areaID: area, limit: limit)
        } else {
            throw APIError.badParameter("search by near=lon,lat&radius_m=… or by layer=…&area=…", field: q.has(QueryParameters.searchLayer) ? "area" : "near")
        }
        let decoder = JSONDecoder()
        return Results(reports: records.compactMap { r in
            guard case .misconduct(let m)? = try? decoder.decode(Report.self, from: r.payload) else { return nil }
            let assignment = r.areas.first { $0.layer == preferredLayer } ?? r.areas.first
            return PublicMisconductReport(m, layer: assignment?.layer, areaID: assignment?.areaID)
        })
    }
}
