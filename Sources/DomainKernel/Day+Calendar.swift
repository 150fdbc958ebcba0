/// Gregorian calendar arithmetic for `Day`, done on integers so it is exact for any year and
/// needs no `Calendar` (whose behaviour differs between platforms).
extension Day {
    /// Whether a year has a 29 February: every fourth year, except centuries not divisible by 400.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in a month of a year.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether the calendar fields name a real date.
    public static func isValid(year: Int, month: Int, day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= daysInMonth(year: year, month: month)
    }

    /// Counts days in 400-year eras starting on 1 March, so the leap day is the last day of a
    /// shifted year and months have a fixed length pattern.
    static func ordinal(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let shiftedMonth = (month + 9) % 12                 // March = 0 … February = 11
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468           // 719 468 days from 0000-03-01 to 1970-01-01
    }

    /// The calendar fields of this day; the inverse of `ordinal(year:month:day:)`.
    public var fields: (year: Int, month: Int, day: Int) {
        let shifted = ordinal + 719_468
        let era = Self.floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// ISO weekday, Monday = 1 … Sunday = 7 (1970-01-01 was a Thursday).
    public var isoWeekday: Int { Self.floorModulo(ordinal + 3, 7) + 1 }

    /// The Monday that starts this day's ISO week.
    public var weekStart: Day { adding(days: 1 - isoWeekday) }

    /// The first day of this day's month.
    public var monthStart: Day {
        let f = fields
        return Day(year: f.year, month: f.month, day: 1)
    }

    /// The first day of the next month.
    public var nextMonthStart: Day {
        let f = fields
        return f.month == 12 ? Day(year: f.year + 1, month: 1, day: 1) : Day(year: f.year, month: f.month + 1, day: 1)
    }

    static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    static func floorModulo(_ a: Int, _ b: Int) -> Int { a - floorDivide(a, b) * b }
}
