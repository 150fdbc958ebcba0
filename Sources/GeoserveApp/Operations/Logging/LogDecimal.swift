import Foundation

/// A measured quantity for a log line, with a fixed number of decimal places: the JSON log writes
/// it as a number (`"seconds":0.125`), the text log as that text.
struct LogDecimal: CustomStringConvertible, Sendable {
    let description: String

    init(_ value: Double, places: Int) {
        description = value.isFinite ? String(format: "%.\(places)f", value) : "0"
    }

    /// Digits already formatted as a JSON number (the request line's milliseconds).
    init(formatted digits: String) {
        description = digits
    }
}
