import DomainKernel
import Foundation
import Hummingbird
import ReportVerification
import Storage
import Support

/// A report as verifiers and granted viewers see it: the fields its kind's visibility table shows
/// the audience (every field for verifiers), the exact location, the areas.
struct ReportView: ResponseEncodable, Codable {
    let id: String
    let kind: ReportKind
    let status: ReportStatus
    let version: Int
    let submittedAt: Date
    let updatedAt: Date
    let occurredOn: Day
    let location: Location?
    let areas: [AreaAssignment]
    /// The report's fields as submitted (and edited).
    let report: JSONValue
    var claim: ReportClaim?

    struct Location: Codable {
        let lon: Double
        let lat: Double
    }

    init(_ r: ReportRecord, audience: ReportAudience = .verifier, claim: ReportClaim? = nil) {
        id = r.id
        kind = r.kind
        status = r.status
        version = r.version
        submittedAt = r.submittedAt
        updatedAt = r.updatedAt
        occurredOn = r.occurredOn
        if let lon = r.lon, let lat = r.lat { location = Location(lon: lon, lat: lat) } else { location = nil }
        areas = r.areas
        let stored = (try? JSONDecoder().decode(JSONValue.self, from: r.payload)) ?? .null
        if audience == .verifier {
            report = stored
        } else if let typed = try? JSONDecoder().decode(Report.self, from: r.payload), let shown = try? typed.fields(visibleTo: audience) {
            report = .object(["kind": .string(typed.kind.rawValue), typed.kind.rawValue: .object(shown)])
        } else {
            report = .null
        }
        self.claim = claim
    }
}

/// What a reporter, or the holder of a receipt, sees of a report: its status and areas only.
struct ReportStatusView: ResponseEncodable, Codable {
    let id: String
    let kind: ReportKind
    let status: ReportStatus
    let submittedAt: Date
    let areas: [AreaAssignment]

    init(_ r: ReportRecord) {
        id = r.id
        kind = r.kind
        status = r.status
        submittedAt = r.submittedAt
        areas = r.areas
    }
}
