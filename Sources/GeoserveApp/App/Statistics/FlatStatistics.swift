import Aggregation
import DomainKernel

/// The released numbers of an area as flat, typed feature properties — `verified_14d`,
/// `previous_14d`, `change_14d`, `rate_14d`, `pending_14d`, `verified_14d_student` — and
/// `suppressed`, the comma-separated names of those withheld (shown as `null`): plain text,
/// because a list is a type GeoPackage and shapefiles do not have.
///
/// Flat because GIS clients (GDAL, QGIS, ArcGIS) turn a nested object into one opaque text
/// field: a researcher colouring a map by the 14-day count needs a numeric field of its own.
/// The same field list writes the values and the collection's JSON Schema, so the two agree.
struct FlatStatistics: Sendable {
    /// One property: its name and whether it holds whole numbers (else any number).
    struct Field: Sendable, Equatable {
        let name: String
        let isInteger: Bool
    }

    /// Breakdown groups shown (a covid request's affiliations), in order.
    let groups: [BreakdownGroup]
    /// Whether the layer has denominators, so rates exist.
    let hasRates: Bool
    /// Whether pending counts are shown (verifiers).
    let hasPending: Bool

    /// Every property the statistics add to a feature, in a stable order (`suppressed` aside).
    var fields: [Field] {
        var out: [Field] = []
        for window in Window.allCases {
            out.append(Field(name: "verified_\(window.rawValue)", isInteger: true))
            if window != .all {
                out.append(Field(name: "previous_\(window.rawValue)", isInteger: true))
                out.append(Field(name: "change_\(window.rawValue)", isInteger: true))
            }
            if hasRates { out.append(Field(name: "rate_\(window.rawValue)", isInteger: false)) }
            if hasPending { out.append(Field(name: "pending_\(window.rawValue)", isInteger: true)) }
            for group in groups { out.append(Field(name: "verified_\(window.rawValue)_\(group.name)", isInteger: true)) }
        }
        return out
    }

    /// The numbers as JSON members without braces, ending with `"suppressed":"…"`.
    func members(_ s: ReleasedAreaStatistics) -> String {
        var parts: [String] = []
        var suppressed: [String] = []
        func add(_ name: String, _ value: Released<Int>?) {
            guard let value else { parts.append("\"\(name)\":null"); return }
            if let v = value.value { parts.append("\"\(name)\":\(v)") } else { parts.append("\"\(name)\":null"); suppressed.append(name) }
        }
        for window in Window.allCases {
            let w = window.rawValue
            add("verified_\(w)", s.counts[window])
            if window != .all {
                add("previous_\(w)", s.previous[window])
                add("change_\(w)", s.change[window])
            }
            if hasRates {
                switch s.ratePer1000?[window] {
                case .value(let r)?: parts.append("\"rate_\(w)\":" + JSONText.number((r * 1000).rounded() / 1000))
                case .suppressed?: parts.append("\"rate_\(w)\":null"); suppressed.append("rate_\(w)")
                case nil: parts.append("\"rate_\(w)\":null")
                }
            }
            if hasPending { parts.append("\"pending_\(w)\":" + (s.pending?[window].map(String.init) ?? "null")) }
            for group in groups { add("verified_\(w)_\(group.name)", s.groups[group.name]?[window]) }
        }
        parts.append("\"suppressed\":\"" + suppressed.sorted().joined(separator: ",") + "\"")
        return parts.joined(separator: ",")
    }
}
