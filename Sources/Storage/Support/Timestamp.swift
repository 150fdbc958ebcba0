import DomainKernel
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

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction]Z` — the stored form and the usual one in files —
    /// with integer arithmetic; nil for any other form (an offset, a missing part), which the
    /// caller then gives to the full ISO 8601 parser. A bulk import reads a million of these.
    public static func parseUTC(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b.last == UInt8(ascii: "Z"),
              let day = Day(iso: String(decoding: b[0..<10], as: UTF8.self)) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        var fraction = 0.0
        if b.count > 20 {
            guard b[19] == UInt8(ascii: "."), b.count > 21, let digits = number(20..<(b.count - 1)), b.count - 21 <= 9 else { return nil }
            fraction = Double(digits) / pow(10, Double(b.count - 21))
        } else if b[19] != UInt8(ascii: "Z") {
            return nil
        }
        return Date(timeIntervalSince1970: Double(day.ordinal * 86_400 + hour * 3600 + minute * 60 + second) + fraction)
    }
}
