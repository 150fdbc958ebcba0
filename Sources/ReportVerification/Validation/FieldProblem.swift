/// One thing wrong with a draft: the field's path (`witnesses[1].statement`), a stable code for
/// programs, and a reason for people.
public struct FieldProblem: Codable, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is; stable, so clients may translate or react to it.
    public enum Code: String, Codable, CaseIterable, Hashable, Sendable {
        /// Missing, or only blanks.
        case required
        /// Text longer than its limit.
        case tooLong
        /// A list with more entries than its limit.
        case tooMany
        /// Not one of the allowed values.
        case notOneOf
        /// Not in the expected format (date, date-time, phone number).
        case badFormat
        /// A date or time after now.
        case inFuture
        /// A number outside its range.
        case outOfRange
        /// Fields that exclude each other were both given, or a value repeats.
        case conflicting
        /// A field that belongs to the other kind of report.
        case notApplicable
    }

    /// Path of the field, dots into objects and `[i]` into lists (0-based).
    public let field: String
    /// The kind of problem.
    public let code: Code
    /// Why, in words fit for an error message.
    public let reason: String

    /// Creates a problem.
    public init(field: String, code: Code, reason: String) {
        self.field = field
        self.code = code
        self.reason = reason
    }

    /// `field: reason`.
    public var description: String { "\(field): \(reason)" }
}
