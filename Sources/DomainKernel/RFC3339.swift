import Foundation

/// The strict RFC 3339 form of a date-time, `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, read and
/// written by arithmetic. Foundation's ISO 8601 styles cost more than the rest of a report's
/// validation; this covers what clients send, and `Instant.parse` hands anything else (other
/// ISO 8601 spellings, odd years or offsets) to Foundation.
public enum RFC3339 {
    /// The instant of a strict RFC 3339 date-time in years 1900–9999 with an offset of at most
    /// 14 hours; nil for anything else, including dates that do not exist.
    public static func parse(_ text: String) -> Date? { parseWithOffset(text)?.date }

    /// The instant and the offset it is written at; nil as for `parse`.
    public static func parseWithOffset(_ text: String) -> (date: Date, offsetSeconds: Int)? {
        let c = Array(text.utf8)
        guard c.count >= 20, c[4] == UInt8(ascii: "-"), c[7] == UInt8(ascii: "-"), c[10] == UInt8(ascii: "T"),
              c[13] == UInt8(ascii: ":"), c[16] == UInt8(ascii: ":"),
              let year = number(c, 0, 4), let month = number(c, 5, 2), let day = number(c, 8, 2),
              let hour = number(c, 11, 2), let minute = number(c, 14, 2), let second = number(c, 17, 2),
              (1900...9999).contains(year), Day.isValid(year: year, month: month, day: day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var i = 19
        var fraction = 0.0
        if c[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            let start = i
            while i < c.count, let digit = digit(c[i]) {
                fraction += Double(digit) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < c.count else { return nil }
        let offset: Int
        switch c[i] {
        case UInt8(ascii: "Z"):
            guard i + 1 == c.count else { return nil }
            offset = 0
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == c.count, c[i + 3] == UInt8(ascii: ":"), let h = number(c, i + 1, 2), let m = number(c, i + 4, 2),
                  h <= 14, m < 60 else { return nil }
            offset = (c[i] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60)
        default:
            return nil
        }
        let days = Day(year: year, month: month, day: day).ordinal
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return (Date(timeIntervalSince1970: Double(seconds) + fraction), offset)
    }

    /// The instant to the second (the fraction dropped) at a fixed offset from UTC: `Z` for
    /// zero, `±HH:MM` otherwise; nil for an offset that is not whole minutes (local mean time
    /// before a zone was standardised), which RFC 3339 cannot write.
    public static func format(_ date: Date, offsetSeconds: Int) -> String? {
        guard offsetSeconds % 60 == 0 else { return nil }
        let whole = Int(date.timeIntervalSince1970.rounded(.down)) + offsetSeconds
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let (y, m, d) = Day(ordinal: days).fields
        var out = pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
        out += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if offsetSeconds == 0 { return out + "Z" }
        let magnitude = abs(offsetSeconds)
        return out + (offsetSeconds < 0 ? "-" : "+") + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
    }

    private static func digit(_ b: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) ? Int(b - UInt8(ascii: "0")) : nil
    }

    private static func number(_ c: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= c.count else { return nil }
        var n = 0
        for i in start..<start + count {
            guard let d = digit(c[i]) else { return nil }
            n = n * 10 + d
        }
        return n
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
