import Foundation

/// Every length, count and range limit on report input, in one place, so that the validator,
/// the API documentation and the tests read the same numbers.
public enum ReportLimits {
    /// Names, badge numbers, race, gender, witness contacts: a line, never a paragraph.
    public static let shortText = 200
    /// Descriptions, statements, notes, comments: a long account fits; a pasted document does not.
    public static let longText = 5_000
    /// Layer names, area ids and attachment ids: identifiers, not prose.
    public static let idText = 128
    /// Witnesses per misconduct report; more is almost certainly a client bug or abuse.
    public static let witnesses = 20
    /// Videos and photos per misconduct report.
    public static let attachments = 10
    /// The largest horizontal accuracy accepted for a location. TripleR aims for fixes within a
    /// kilometre; coarser ones still place a report in a city community area, so the cut-off is
    /// where a fix no longer says which part of a city it is in, not where it stops being good.
    public static let maxAccuracyMetres = 10_000.0
    /// Digits in a phone number: the shortest local numbers have 7, E.164 allows 15, and 20 leaves
    /// room for an extension.
    public static let phoneDigits = 7...20
    /// Characters in a phone number as written, separators included.
    public static let phoneCharacters = 32
    /// A reporter's age in years.
    public static let age = 0...130
    /// How far back a date may lie (ten years): an incident, a test or a last day on campus
    /// older than that is a typing slip (0001-01-01, 1926 for 2026), not a report to count.
    public static let maxPastDays = 3_653
    /// The refusal of a date older than that, worded from the limit.
    static var tooOld: String { "must lie within the last \(maxPastDays / 365) years" }
    /// How far in the future an incident time may lie, to forgive a phone clock running ahead.
    public static let clockSkew: TimeInterval = 5 * 60
    /// Revisions kept per report (the death-scene forms keep the last five versions).
    public static let revisionsKept = 5
}
