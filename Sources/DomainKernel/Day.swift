/// A civil date in the campus time zone: the unit every counter and window is measured in.
///
/// Stored as a count of days since 1970-01-01 so that ordering, hashing and arithmetic are
/// plain integer operations; the proleptic Gregorian calendar is used for all years.
public struct Day: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01 (negative before it).
    public let ordinal: Int

    /// Wraps a day count since 1970-01-01.
    public init(ordinal: Int) {
        self.ordinal = ordinal
    }

    /// Creates a day from its calendar fields; the date must exist (month 1–12, day within the month).
    public init(year: Int, month: Int, day: Int) {
        precondition(Self.isValid(year: year, month: month, day: day), "no such date: \(year)-\(month)-\(day)")
        ordinal = Self.ordinal(year: year, month: month, day: day)
    }

    /// Parses a strict `YYYY-MM-DD` (four-digit year, two-digit month and day, a real date); nil otherwise.
    public init?(iso: String) {
        let bytes = Array(iso.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for b in bytes[range] {
                guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(b - UInt8(ascii: "0"))
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
              Self.isValid(year: y, month: m, day: d) else { return nil }
        ordinal = Self.ordinal(year: y, month: m, day: d)
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.ordinal < rhs.ordinal }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> Day { Day(ordinal: ordinal + days) }

    /// Whole days from `other` to this day: positive when this day is later.
    public func days(since other: Day) -> Int { ordinal - other.ordinal }
}
