import DomainKernel
import Foundation

extension DraftValidator {
    /// A calendar day `YYYY-MM-DD` that exists and is not after today in the campus zone.
    mutating func day(_ field: String, _ value: String?, required: Bool) -> Day? {
        guard let raw = text(field, value, max: ReportLimits.idText, required: required) else {
            return nil
        }
        guard let day = Day(iso: raw) else {
            fail(field, .badFormat, "must be a date YYYY-MM-DD")
            return nil
        }
        let today = Day.containing(now, in: calendar.timeZone)
        if day > today {
            fail(field, .inFuture, "must not be in the future")
            return nil
        }
        if day < today.adding(days: -ReportLimits.maxPastDays) {
            fail(field, .outOfRange, ReportLimits.tooOld)
            return nil
        }
        return day
    }

    /// An ISO 8601 date-time with a zone, not later than now (give or take a phone clock's skew).
    /// Returned at the campus zone's offset, so that its civil day is the day where the campus
    /// is — the day it is counted on.
    mutating func instant(_ field: String, _ value: String?) -> Instant? {
        guard let raw = text(field, value, max: 40, required: true) else { return nil }
        let instant: Instant
        do { instant = try Instant.parse(raw) } catch {
            fail(field, .badFormat, "must be an ISO 8601 date-time with a zone, such as 2026-11-20T21:15:00Z")
            return nil
        }
        guard instant.date <= now.addingTimeInterval(ReportLimits.clockSkew) else {
            fail(field, .inFuture, "must not be in the future")
            return nil
        }
        guard instant.date >= now.addingTimeInterval(-Double(ReportLimits.maxPastDays) * 86_400) else {
            fail(field, .outOfRange, ReportLimits.tooOld)
            return nil
        }
        return instant.in(calendar.timeZone)
    }

    /// What `instant` writes, by Foundation: the reference its arithmetic is tested against.
    static func foundationInstant(_ date: Date, in zone: TimeZone) -> String {
        // RFC 3339 wants the offset with a colon (-06:00), which is not the style's default.
        date.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone))
    }
}
