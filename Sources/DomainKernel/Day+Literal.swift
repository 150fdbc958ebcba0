/// A day written as a literal, `"2026-11-20"`: for fixed dates in code and tests. A literal that
/// is not a real date is a programming error and stops the program; text from outside goes
/// through `Day(iso:)`, which returns nil instead.
extension Day: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        guard let day = Day(iso: value) else { preconditionFailure("not a date YYYY-MM-DD: \(value)") }
        self = day
    }
}
