/// A JSON value of the OpenAPI document that can live in a `Sendable` table (the document's
/// dictionaries are built from it on use).
enum SchemaValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case strings([String])

    /// For `JSONSerialization`.
    var json: Any {
        switch self {
        case .string(let s): s
        case .int(let n): n
        case .number(let d): d
        case .bool(let b): b
        case .strings(let a): a
        }
    }

    /// A number as people write it: no ".0" on whole numbers.
    static func text(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }
}
