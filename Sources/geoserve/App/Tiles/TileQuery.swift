import Aggregation
import DomainKernel
import Hummingbird
import MapTiles

/// What a tile request draws: which statistic of which reports, and in which style. Parsed with
/// the same strictness as the features query (unknown parameters are refused).
struct TileQuery: Hashable, Sendable {
    static let declared: Set<String> = ["metric", "kind", "basis", "ramp", "classes", "method", "breaks", "labels", "v"]
    static let metrics = ["verified_7d", "verified_14d", "verified_28d", "verified_all", "rate_7d", "rate_14d", "rate_28d", "rate_all"]

    var metric = "verified_14d"
    var kind: ReportKind?
    var basis: TimeBasis = .occurred
    var style = TileStyle()
    /// The data version the client's URL names (from TileJSON), if any.
    var version: String?

    init() {}

    init(_ request: Request, allowed: Set<String> = declared) throws {
        let q = request.uri.queryParameters
        func bad(_ field: String, _ message: String) -> APIError {
            APIError.badParameter(message, field: field)
        }
        try APIError.refuseUnknownParameters(request, allowed: allowed)
        if let m = q["metric"] {
            guard Self.metrics.contains(String(m)) else { throw bad("metric", "metric must be one of \(Self.metrics.joined(separator: ", "))") }
            metric = String(m)
        }
        if let k = q["kind"] {
            guard let parsed = ReportKind(rawValue: String(k)) else { throw bad("kind", "kind must be covid or misconduct") }
            kind = parsed
        }
        if let b = q["basis"] {
            guard let basis = TimeBasis(rawValue: String(b)) else { throw bad("basis", "basis must be occurred, submitted or verified") }
            self.basis = basis
        }
        if let r = q["ramp"] {
            guard let ramp = ColorRamp(rawValue: String(r)) else {
                throw bad("ramp", "ramp must be one of \(ColorRamp.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            style.ramp = ramp
        }
        var classes = 7
        if let c = q["classes"] {
            guard let n = Int(c), ColorRamp.classRange.contains(n) else { throw bad("classes", "classes must be 3 to 9") }
            classes = n
        }
        switch q["method"].map({ String($0) }) ?? (q["breaks"] == nil ? "quantile" : "fixed") {
        case "quantile": style.classification = .quantiles(classes: classes)
        case "equal": style.classification = .equalInterval(classes: classes)
        case "fixed":
            let parts = (q["breaks"].map { String($0) } ?? "").split(separator: ",").map { Double($0) }
            guard !parts.isEmpty, parts.count < ColorRamp.classRange.upperBound, parts.allSatisfy({ $0?.isFinite == true }) else {
                throw bad("breaks", "breaks must be 1 to 8 ascending numbers, e.g. breaks=1,11,25")
            }
            style.classification = .fixedBreaks(parts.map { $0! })
        default: throw bad("method", "method must be quantile, equal or fixed")
        }
        if let l = q["labels"] {
            guard l == "true" || l == "false" else { throw bad("labels", "labels must be true or false") }
            style.labels = l == "true"
        }
        version = q["v"].map { String($0) }
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
        if basis != .occurred { items.append("basis=\(basis.rawValue)") }
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
