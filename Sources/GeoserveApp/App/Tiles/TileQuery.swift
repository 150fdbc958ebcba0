import Aggregation
import DomainKernel
import Hummingbird
import MapTiles

/// What a tile request draws: which statistic of which reports, and in which style. Parsed with
/// the same strictness as the features query (unknown parameters are refused).
package struct TileQuery: Hashable, Sendable {
    package var metric = "verified_14d"
    var kind: ReportKind?
    /// Refused when given: tiles draw published numbers, which have one basis.
    var basis: TimeBasis?
    var style = TileStyle()
    /// The data version the client's URL names (from TileJSON), if any.
    var version: String?

    package init() {}

    /// Parses the query string against `QueryParameters.tile` (TileJSON and legends take the
    /// same without `v`).
    init(_ request: Request, declared: [QueryParameter] = QueryParameters.tile) throws {
        let q = try QueryValues(request, declared)
        metric = q.text(QueryParameters.metric) ?? metric
        kind = q.value(QueryParameters.kind)
        basis = q.value(QueryParameters.basis)
        style.ramp = q.value(QueryParameters.ramp) ?? style.ramp
        let classes = q.int(QueryParameters.classes) ?? 7
        switch q.text(QueryParameters.method) ?? (q.has(QueryParameters.breaks) ? "fixed" : "quantile") {
        case "equal": style.classification = .equalInterval(classes: classes)
        case "fixed":
            guard let breaks = q.numbers(QueryParameters.breaks) else {
                throw APIError.badParameter("method=fixed needs breaks, e.g. breaks=1,11,25", field: "breaks")
            }
            style.classification = .fixedBreaks(breaks)
        default: style.classification = .quantiles(classes: classes)
        }
        style.labels = q.bool(QueryParameters.labels) ?? false
        version = q.has(QueryParameters.tileVersion) ? q.text(QueryParameters.tileVersion) : nil
    }

    /// The window the metric reads.
    var window: Window {
        switch metric.split(separator: "_").last {
        case "7d": return .d7
        case "14d": return .d14
        case "28d": return .d28
        default: return .all
        }
    }

    var isRate: Bool { metric.hasPrefix("rate_") }

    /// Query items that select the same picture (for TileJSON's tile URL and the legend link).
    var linkQuery: String {
        var items = ["metric=\(metric)"]
        if let kind { items.append("kind=\(kind.rawValue)") }
        if let basis { items.append("basis=\(basis.rawValue)") }
        if style.ramp != TileStyle().ramp { items.append("ramp=\(style.ramp.rawValue)") }
        switch style.classification {
        case .quantiles(let n): if n != 7 { items.append("classes=\(n)") }
        case .equalInterval(let n): items.append("method=equal&classes=\(n)")
        case .fixedBreaks(let b): items.append("method=fixed&breaks=" + b.map { JSONText.number($0) }.joined(separator: ","))
        }
        if style.labels { items.append("labels=true") }
        return items.joined(separator: "&")
    }
}
