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
        let q = request.uri.queryParameters
        let limit = try QueryNumber.int(q["limit"], name: "limit", default: 100, range: 1...500)
        let preferredLayer = q["layer"].map(String.init)
        var records: [ReportRecord]
        if let near = q["near"] {
            let parts = near.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, (try? Position(lon: parts[0], lat: parts[1])) != nil else {
                throw APIError.invalid("near is lon,lat in degrees", field: "near")
            }
            guard let raw = q["radius_m"], let radius = Double(raw), Self.radiusRange.contains(radius) else {
                throw APIError.invalid("radius_m is required, from \(Int(Self.radiusRange.lowerBound)) to \(Int(Self.radiusRange.upperBound)) metres", field: "radius_m")
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
        } else if let layer = preferredLayer, let area = q["area"] {
            records = try await search.verifiedReports(kind: .misconduct, layer: layer, areaID: String(area), limit: limit)
        } else {
            throw APIError.invalid("search by near=lon,lat&radius_m=… or by layer=…&area=…", field: "near")
        }
        let decoder = JSONDecoder()
        return Results(reports: records.compactMap { r in
            guard case .misconduct(let m)? = try? decoder.decode(Report.self, from: r.payload) else { return nil }
            let assignment = r.areas.first { $0.layer == preferredLayer } ?? r.areas.first
            return PublicMisconductReport(m, layer: assignment?.layer, areaID: assignment?.areaID)
        })
    }
}
