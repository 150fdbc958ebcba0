import Foundation

/// ISO 8601 timestamps in UTC with milliseconds, the stored text of every instant. Text of one
/// width sorts as time does, so stored instants compare in SQL as strings.
public enum Timestamp {
    public static func now() -> String { format(Date()) }

    /// Built once: making the style is a large part of formatting one date.
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public static func format(_ d: Date) -> String {
        style.format(d)
    }

    public static func parse(_ s: String) -> Date {
        (try? style.parse(s)) ?? Date(timeIntervalSince1970: 0)
    }
}
