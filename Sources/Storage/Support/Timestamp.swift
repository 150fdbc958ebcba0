import DomainKernel
import Foundation

/// ISO 8601 timestamps in UTC with milliseconds, the stored text of every instant. Text of one
/// width sorts as time does, so stored instants compare in SQL as strings.
public enum Timestamp {
    public static func now() -> String { format(Date()) }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, the instant rounded to the nearest millisecond, with integer
    /// arithmetic: what `parseUTC` reads gives back the same text (Foundation's formatter cuts
    /// the fraction, so 59.999 read as a double could come back as 59.998), and a bulk import
    /// writes two of these per report.
    public static func format(_ d: Date) -> String {
        let ms = Int64((d.timeIntervalSince1970 * 1000).rounded())
        let (days, rest) = ms.quotientAndRemainder(dividingBy: 86_400_000)
        let (dayCount, inDay) = rest < 0 ? (days - 1, rest + 86_400_000) : (days, rest)
        var text = Day(ordinal: Int(dayCount)).iso
        text.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            let s = String(value)
            text += String(repeating: "0", count: max(0, digits - s.count)) + s
        }
        text += "T"
        append(inDay / 3_600_000, digits: 2)
        text += ":"
        append(inDay / 60_000 % 60, digits: 2)
        text += ":"
        append(inDay / 1000 % 60, digits: 2)
        text += "."
        append(inDay % 1000, digits: 3)
        text += "Z"
        return text
    }

    /// The instant as it reads back once stored: rounded to the nearest millisecond.
    public static func rounded(_ d: Date) -> Date {
        Date(timeIntervalSince1970: (d.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// A stored instant; `StorageError.unreadable` for text that is none (never a default date).
    public static func parse(_ s: String) throws(StorageError) -> Date {
        if let date = parseUTC(s) { return date }
        do { return try Instant.parse(s).date } catch { throw .unreadable("time \"\(s)\"") }
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction]Z` — the stored form and the usual one in files —
    /// with integer arithmetic; nil for any other form (an offset, a missing part), which the
    /// caller then gives to `Instant.parse`. A bulk import reads a million of these.
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
