import Aggregation
import DomainKernel
import Foundation
import GeoCore
import Hummingbird

/// The query of an items request, parsed the OGC way from `QueryParameters`: every parameter
/// declared with its range and default, an undeclared one refused with 400 (OGC API – Features
/// /req/core/query-param-unknown), a `limit` above the maximum clamped rather than refused
/// (/req/core/fc-limit-response-1).
struct FeatureQuery: Hashable, Sendable {
    static let defaultLimit = 100
    static let maxLimit = 10_000

    var format: ResponseFormat = .json
    var limit = defaultLimit
    var bbox: BoxFilter?
    /// The last day of the statistics windows, nil for today in the campus zone.
    var windowEnd: Day?
    /// Raw `datetime` as given, for links.
    var datetime: String?
    var cursor: PageCursor?
    /// Report kind the statistics count; nil counts every kind.
    var kind: ReportKind?
    /// Which date places a report in a window: `occurred` (test date, incident date), `submitted` or `verified`.
    var basis = TimeBasis.occurred


    init() {}

    /// Parses the query string against the route's declared parameters (`QueryParameters.items`
    /// for a page of features; fewer for the other OGC routes).
    init(_ request: Request, declared: [QueryParameter] = QueryParameters.items) throws {
        let q = try QueryValues(request, declared)
        format = ResponseFormat(request, q)
        limit = q.int(QueryParameters.limit) ?? Self.defaultLimit
        if q.has(QueryParameters.bbox), let raw = q.text(QueryParameters.bbox) { bbox = try Self.parseBox(raw) }
        if q.has(QueryParameters.datetime), let raw = q.text(QueryParameters.datetime) {
            datetime = raw
            windowEnd = try Self.parseWindowEnd(raw)
        }
        if q.has(QueryParameters.cursor), let raw = q.text(QueryParameters.cursor) {
            guard let c = PageCursor(token: raw) else {
                throw APIError.badParameter("cursor is not one this service issued", field: "cursor")
            }
            cursor = c
        }
        kind = q.value(QueryParameters.kind)
        basis = q.value(QueryParameters.basis) ?? .occurred
    }

    /// `minLon,minLat,maxLon,maxLat` (or the six-number form with heights, which are ignored),
    /// in CRS84. A west edge greater than the east edge crosses the antimeridian (RFC 7946 §5.2).
    static func parseBox(_ raw: String) throws -> BoxFilter {
        let parts = raw.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4 || parts.count == 6, parts.allSatisfy({ $0?.isFinite == true }) else {
            throw APIError.badParameter("bbox must be four numbers: minLon,minLat,maxLon,maxLat", field: "bbox")
        }
        let v = parts.map { $0! }
        let (w, s, e, n) = parts.count == 4 ? (v[0], v[1], v[2], v[3]) : (v[0], v[1], v[3], v[4])
        guard (-180...180).contains(w), (-180...180).contains(e), (-90...90).contains(s), (-90...90).contains(n), s <= n else {
            throw APIError.badParameter("bbox must lie within -180..180, -90..90 with minLat ≤ maxLat", field: "bbox")
        }
        let original = BoundingBox(west: w, south: s, east: e, north: n)
        if w <= e { return BoxFilter(boxes: [original], original: original) }
        return BoxFilter(boxes: [BoundingBox(west: w, south: s, east: 180, north: n), BoundingBox(west: -180, south: s, east: e, north: n)],
                         original: original)
    }

    /// The statistics window ends on the last day the `datetime` value names: an RFC 3339 date
    /// or date-time, or an interval `start/end` whose end may be open (`..`, meaning today). The
    /// start is checked but selects nothing, since every window counts back from the end.
    static func parseWindowEnd(_ raw: String) throws -> Day? {
        let bad = APIError.badParameter("datetime must be an RFC 3339 date or date-time, or an interval start/end with '..' for an open end", field: "datetime")
        let parts = raw.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count) else { throw bad }
        // Only the end matters: the windows count back from it, so an interval's start selects nothing.
        for p in parts where p != ".." && p != "" && day(of: p) == nil { throw bad }
        let end = parts.last!
        if end == ".." || end.isEmpty { return nil }
        return day(of: end)
    }

    /// The day of a date, or a date-time's own calendar day.
    static func day(of text: String) -> Day? {
        guard let day = Day(iso: String(text.prefix(10))) else { return nil }
        if text.count > 10 {
            guard text.dropFirst(10).first == "T" || text.dropFirst(10).first == "t",
                  (try? Date.ISO8601FormatStyle().parse(text)) != nil || (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) != nil
            else { return nil }
        }
        return day
    }

    /// The query as a canonical string (sorted, defaults spelled out): part of cache keys.
    var canonical: String {
        var parts = ["limit=\(limit)", "basis=\(basis.rawValue)"]
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
        if limit != Self.defaultLimit { items.append(("limit", "\(limit)")) }
        if let bbox { items.append(("bbox", bbox.original.array.map { JSONText.number($0) }.joined(separator: ","))) }
        if let datetime { items.append(("datetime", datetime)) }
        if let kind { items.append(("kind", kind.rawValue)) }
        if basis != .occurred { items.append(("basis", basis.rawValue)) }
        if let cursor { items.append(("cursor", cursor.token)) }
        items.append(("f", (format ?? self.format).rawValue))
        return items.map { "\($0.0)=\(URLQuery.escape($0.1))" }.joined(separator: "&")
    }
}

/// A page boundary: after a feature (next page) or before one (previous page), by area id, so
/// pages do not drift when areas are added or removed between requests.
enum PageCursor: Hashable, Sendable {
    case after(String)
    case before(String)

    init?(token: String) {
        guard token.count > 2, let data = Data(base64URLEncoded: String(token.dropFirst(2))) else { return nil }
        // Any id works as a boundary (pages are by id order), so bytes that are not UTF-8 are read leniently.
        let id = String(decoding: data, as: UTF8.self)
        switch token.prefix(2) {
        case "a.": self = .after(id)
        case "b.": self = .before(id)
        default: return nil
        }
    }

    var token: String {
        switch self {
        case .after(let id): return "a." + Data(id.utf8).base64URLEncoded
        case .before(let id): return "b." + Data(id.utf8).base64URLEncoded
        }
    }
}

/// JSON or HTML, by `f` or else by the `Accept` header (browsers ask for HTML).
enum ResponseFormat: String, Hashable, Sendable {
    case json, html

    init(_ request: Request, _ query: QueryValues) {
        if let f = query.text(QueryParameters.f) {
            self = f == "html" ? .html : .json
            return
        }
        let accept = request.headers[.accept] ?? ""
        self = accept.contains("text/html") && !accept.contains("json") ? .html : .json
    }
}

/// Percent-encoding for query values in links.
enum URLQuery {
    static let allowed: CharacterSet = {
        var s = CharacterSet.alphanumerics
        s.insert(charactersIn: "-._~,:")
        return s
    }()

    static func escape(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s }
}
