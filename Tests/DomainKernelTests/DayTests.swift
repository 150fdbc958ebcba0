import Foundation
import Testing
import DomainKernel

@Suite("days")
struct DayTests {
    private func day(_ iso: String) -> Day { Day(iso: iso)! }

    private func instant(_ iso: String, _ hour: Int, _ minute: Int) -> Date {
        Date(timeIntervalSince1970: Double(day(iso).ordinal * 86_400 + hour * 3600 + minute * 60))
    }

    @Test("strict ISO parsing accepts real dates only", arguments: [
        ("2024-02-29", true), ("2000-02-29", true), ("2023-02-29", false), ("2100-02-29", false),
        ("2024-04-31", false), ("2024-13-01", false), ("2024-00-10", false), ("2024-01-00", false),
        ("2024-2-01", false), (" 2024-01-01", false), ("2024-01-01Z", false), ("+024-01-01", false), ("2024/01/01", false),
    ])
    func parsing(text: String, valid: Bool) {
        #expect((Day(iso: text) != nil) == valid)
        if valid { #expect(Day(iso: text)!.iso == text) }
    }

    @Test("ordinals: the epoch, known days, and a round trip through ISO text over four millennia")
    func ordinals() {
        #expect(day("1970-01-01").ordinal == 0)
        #expect(day("2000-03-01").ordinal == 11_017)
        #expect(day("1969-12-31").ordinal == -1)
        for ordinal in stride(from: -700_000, through: 2_200_000, by: 997) {
            let d = Day(ordinal: ordinal)
            #expect(Day(iso: d.iso) == d)
        }
    }

    @Test("adding days across month ends, leap days and year ends")
    func arithmetic() {
        #expect(day("2024-01-31").adding(days: 1) == day("2024-02-01"))
        #expect(day("2024-02-28").adding(days: 1) == day("2024-02-29"))
        #expect(day("2024-02-29").adding(days: 1) == day("2024-03-01"))
        #expect(day("2023-02-28").adding(days: 1) == day("2023-03-01"))
        #expect(day("2100-02-28").adding(days: 1) == day("2100-03-01"))
        #expect(day("2000-02-28").adding(days: 1) == day("2000-02-29"))
        #expect(day("2024-12-31").adding(days: 1) == day("2025-01-01"))
        #expect(day("2025-01-01").adding(days: -1) == day("2024-12-31"))
        #expect(day("2025-01-01").days(since: day("2024-01-01")) == 366)
        #expect(day("2101-01-01").days(since: day("2100-01-01")) == 365)
        #expect(day("2024-03-01").days(since: day("2024-02-01")) == 29)
        #expect(day("2024-03-01") > day("2024-02-29"))
    }

    @Test("weeks start on Monday, months on the first, also across year ends")
    func weeksAndMonths() {
        #expect(day("2024-01-01").weekStart == day("2024-01-01"))      // a Monday
        #expect(day("2024-03-10").weekStart == day("2024-03-04"))      // Sunday
        #expect(day("2024-02-29").weekStart == day("2024-02-26"))
        #expect(day("2025-01-01").weekStart == day("2024-12-30"))
        #expect(day("1970-01-01").isoWeekday == 4)
        #expect(day("2024-02-29").monthStart == day("2024-02-01"))
        #expect(day("2024-12-31").nextMonthStart == day("2025-01-01"))
        #expect(day("2024-01-31").nextMonthStart == day("2024-02-01"))
    }

    @Test("the campus day of an instant, around local midnight and across both DST switches")
    func campusDay() throws {
        let chicago = try #require(TimeZone(identifier: "America/Chicago"))
        // 23:30 CST on 9 March is 05:30 UTC on 10 March.
        #expect(Day.containing(instant("2024-03-10", 5, 30), in: chicago) == day("2024-03-09"))
        #expect(Day.containing(instant("2024-03-10", 6, 0), in: chicago) == day("2024-03-10"))
        // Spring forward at 08:00 UTC on 10 March; midnight is then 05:00 UTC.
        #expect(Day.containing(instant("2024-03-10", 7, 59), in: chicago) == day("2024-03-10"))
        #expect(Day.containing(instant("2024-03-11", 4, 59), in: chicago) == day("2024-03-10"))
        #expect(Day.containing(instant("2024-03-11", 5, 0), in: chicago) == day("2024-03-11"))
        // Fall back on 3 November; midnight after it is 06:00 UTC again.
        #expect(Day.containing(instant("2024-11-03", 4, 59), in: chicago) == day("2024-11-02"))
        #expect(Day.containing(instant("2024-11-04", 5, 59), in: chicago) == day("2024-11-03"))
        #expect(Day.containing(instant("2024-11-04", 6, 0), in: chicago) == day("2024-11-04"))
        #expect(Day.containing(instant("2024-12-31", 23, 30), in: TimeZone(identifier: "UTC")!) == day("2024-12-31"))
        #expect(Day.containing(instant("2025-01-01", 5, 30), in: chicago) == day("2024-12-31"))
    }

    @Test("JSON: a day is its ISO string, and bad strings are refused")
    func coding() throws {
        let data = try JSONEncoder().encode([day("2024-02-29")])
        #expect(String(decoding: data, as: UTF8.self) == #"["2024-02-29"]"#)
        #expect(try JSONDecoder().decode([Day].self, from: data) == [day("2024-02-29")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Day].self, from: Data(#"["2023-02-29"]"#.utf8)) }
    }
}
