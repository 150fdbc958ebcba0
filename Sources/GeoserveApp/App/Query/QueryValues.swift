import DomainKernel
import Foundation
import Hummingbird

/// A request's query string read against the route's declared parameters: an undeclared name is
/// refused (OGC API – Features /req/core/query-param-unknown), a repeated one too, every present
/// value is checked against its parameter's kind and every required one must be there — all
/// before the handler runs, each refusal `400` with the parameter's rule.
struct QueryValues {
    private var values: [String: String] = [:]

    init(_ request: Request, _ declared: [QueryParameter]) throws {
        try self.init(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, declared)
    }

    init(_ pairs: [(String, String)], _ declared: [QueryParameter]) throws {
        let byName = Dictionary(declared.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for (name, value) in pairs {
            guard let parameter = byName[name] else {
                throw APIError(status: .badRequest, code: "unknown_parameter", message: "unknown query parameter \"\(name)\"", field: name)
            }
            guard values[name] == nil else {
                throw APIError(status: .badRequest, code: "bad_parameter", message: "\(name) is given more than once", field: name)
            }
            guard Self.isValid(value, parameter.kind) else { throw parameter.refusal }
            values[name] = value
        }
        for p in declared where p.required && values[p.name] == nil {
            throw APIError.badParameter("\(p.name) is required", field: p.name)
        }
    }

    /// Whether the request gave the parameter.
    func has(_ p: QueryParameter) -> Bool { values[p.name] != nil }

    /// The raw value as given, or the default.
    func text(_ p: QueryParameter) -> String? { values[p.name] ?? p.defaultValue }

    /// An integer parameter's value, clamped as declared; the default when absent.
    func int(_ p: QueryParameter) -> Int? {
        guard let raw = text(p), let n = Self.integer(raw) else { return nil }
        if case .integer(let range, _) = p.kind { return min(n, range.upperBound) }
        return n
    }

    /// A decimal integer; one too large for `Int` reads as `Int.max` (it is clamped anyway).
    private static func integer(_ raw: String) -> Int? {
        if let n = Int(raw) { return n }
        let digits = raw.hasPrefix("+") ? raw.dropFirst() : Substring(raw)
        return !digits.isEmpty && digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) ? Int.max : nil
    }

    /// A number parameter's value.
    func number(_ p: QueryParameter) -> Double? { text(p).flatMap(Double.init) }

    /// A choice parameter as its typed value.
    func value<T: RawRepresentable>(_ p: QueryParameter, as: T.Type = T.self) -> T? where T.RawValue == String {
        text(p).flatMap(T.init(rawValue:))
    }

    /// A list-of-choices parameter as typed values, in the order given.
    func values<T: RawRepresentable>(_ p: QueryParameter, as: T.Type = T.self) -> [T]? where T.RawValue == String {
        text(p).map { $0.split(separator: ",").compactMap { T(rawValue: String($0)) } }
    }

    /// A date parameter's day.
    func day(_ p: QueryParameter) -> Day? { text(p).flatMap(Day.init(iso:)) }

    /// A boolean parameter.
    func bool(_ p: QueryParameter) -> Bool? { text(p).map { $0 == "true" } }

    /// A numbers or bbox parameter's values.
    func numbers(_ p: QueryParameter) -> [Double]? { text(p).flatMap(Self.numbers) }

    private static func numbers(_ raw: String) -> [Double]? {
        let values = raw.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return values.allSatisfy(\.isFinite) ? values : nil
    }

    /// Whether a value fits a kind (ranges below the minimum refused, above clamped or refused).
    static func isValid(_ raw: String, _ kind: QueryParameter.Kind) -> Bool {
        switch kind {
        case .integer(let range, let clamps):
            guard let n = integer(raw) else { return false }
            return n >= range.lowerBound && (clamps || n <= range.upperBound)
        case .number(let range):
            guard let d = Double(raw), d.isFinite else { return false }
            return range.contains(d)
        case .choice(let words): return words.contains(raw)
        case .choices(let words):
            let parts = raw.split(separator: ",", omittingEmptySubsequences: false)
            return !parts.isEmpty && parts.allSatisfy { words.contains(String($0)) }
        case .date: return Day(iso: raw) != nil
        case .boolean: return raw == "true" || raw == "false"
        case .numbers(let count):
            let parts = raw.split(separator: ",", omittingEmptySubsequences: false)
            return count.contains(parts.count) && parts.allSatisfy { Double($0.trimmingCharacters(in: .whitespaces))?.isFinite == true }
        case .bbox:
            guard let v = numbers(raw), v.count == 4 || v.count == 6 else { return false }
            let (w, s, e, n) = v.count == 4 ? (v[0], v[1], v[2], v[3]) : (v[0], v[1], v[3], v[4])
            return [w, e].allSatisfy { (-180...180).contains($0) } && [s, n].allSatisfy { (-90...90).contains($0) }
        case .pattern(let regex, let max):
            return !raw.isEmpty && raw.count <= max && regex.matches(raw)
        case .text(let max): return !raw.isEmpty && raw.count <= max
        }
    }
}
