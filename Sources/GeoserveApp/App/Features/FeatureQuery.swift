import GeoCore
import Aggregation
import DomainKernel
import Foundation
import Hummingbird

/// The query of an items request, parsed the OGC way from `QueryParameters`: every parameter
/// declared with its range and default, an undeclared one refused with 400 (OGC API – Features
/// /req/core/query-param-unknown), a `limit` above the maximum clamped rather than refused
/// (/req/core/fc-limit-response-1).
struct FeatureQuery: Hashable, Sendable {
    var format: ResponseFormat = .json
    var limit = QueryLimits.defaultFeatures
    var bbox: BoxFilter?
    /// The last day of the statistics windows, nil for today in the campus zone.
    var windowEnd: Day?
    /// Raw `datetime` as given, for links.
    var datetime: String?
    var cursor: PageCursor?
    /// Report kind the statistics count; nil: COVID cases in published numbers, every kind in
    /// verifiers' live view.
    var kind: ReportKind?
    /// Which date places a report in a window in verifiers' live view: `occurred` (test date,
    /// incident date, the default), `submitted` or `verified`; nil when not asked for.
    var basis: TimeBasis?


    init() {}

    /// Parses the query string against the route's declared parameters (`QueryParameters.items`
    /// for a page of features; fewer for the other OGC routes).
    init(_ request: Request, declared: [QueryParameter] = QueryParameters.items) throws {
        let q = try QueryValues(request, declared)
        format = ResponseFormat(request, q)
        limit = q.int(QueryParameters.limit) ?? QueryLimits.defaultFeatures
        if q.has(QueryParameters.bbox), let v = q.numbers(QueryParameters.bbox) { bbox = Self.box(v) }
        if q.has(QueryParameters.datetime), let raw = q.text(QueryParameters.datetime) {
            datetime = raw
            windowEnd = Self.windowEnd(raw)
        }
        if q.has(QueryParameters.cursor), let raw = q.text(QueryParameters.cursor) {
            guard let c = PageCursor(token: raw) else {
                throw APIError.badParameter("cursor is not one this service issued", field: "cursor")
            }
            cursor = c
        }
        kind = q.value(QueryParameters.kind)
        basis = q.value(QueryParameters.basis)
    }

    /// `minLon,minLat,maxLon,maxLat` (or the six-number form with heights, which are ignored),
    /// in CRS84, as `QueryParameters.bbox` has checked it. A west edge greater than the east edge
    /// crosses the antimeridian (RFC 7946 §5.2); latitudes given north first are the same box.
    static func box(_ v: [Double]) -> BoxFilter {
        let (w, s, e, n) = v.count == 4 ? (v[0], v[1], v[2], v[3]) : (v[0], v[1], v[3], v[4])
        let original = BoundingBox(west: w, south: min(s, n), east: e, north: max(s, n))
        if w <= e { return BoxFilter(boxes: [original], original: original) }
        return BoxFilter(boxes: [BoundingBox(west: w, south: original.south, east: 180, north: original.north),
                                 BoundingBox(west: -180, south: original.south, east: e, north: original.north)],
                         original: original)
    }

    /// The statistics windows end on the last day a `datetime` value names (as
    /// `QueryParameters.Patterns.datetime` has checked it): a date or date-time's own day, or an
    /// interval's end, nil for an open end (today). An interval's start selects nothing, since
    /// every window counts back from the end.
    static func windowEnd(_ raw: String) -> Day? {
        let end = raw.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return end == ".." || end.isEmpty ? nil : Day(iso: String(end.prefix(10)))
    }

    /// The query as a canonical string (sorted, defaults spelled out): part of cache keys.
    var canonical: String {
        var parts = ["limit=\(limit)"]
        if let basis { parts.append("basis=\(basis.rawValue)") }
        if let bbox { parts.append("bbox=\(bbox.original.array.map { JSONText.number($0) }.joined(separator: ","))") }
        if let windowEnd { parts.append("end=\(windowEnd.iso)") }
        if let cursor { parts.append("cursor=\(cursor.token)") }
        if let kind { parts.append("kind=\(kind.rawValue)") }
        parts.append("f=\(format.rawValue)")
        return parts.joined(separator: "&")
    }

    /// Query items for a link to another page of the same request (cursor replaced).
    func linkQuery(cursor: PageCursor?, format: ResponseFormat? = nil) -> String {
        var items: [(String, String)] = []
        if limit != QueryLimits.defaultFeatures { items.append(("limit", "\(limit)")) }
        if let bbox { items.append(("bbox", bbox.original.array.map { JSONText.number($0) }.joined(separator: ","))) }
        if let datetime { items.append(("datetime", datetime)) }
        if let kind { items.append(("kind", kind.rawValue)) }
        if let basis { items.append(("basis", basis.rawValue)) }
        if let cursor { items.append(("cursor", cursor.token)) }
        items.append(("f", (format ?? self.format).rawValue))
        return items.map { "\($0.0)=\(URLQuery.escape($0.1))" }.joined(separator: "&")
    }
}
