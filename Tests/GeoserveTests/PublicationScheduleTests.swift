import Aggregation
import Foundation
import Testing
@testable import GeoserveApp

@Suite("publication schedule")
struct PublicationScheduleTests {
    let chicago = TimeZone(identifier: "America/Chicago")!

    private func date(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    @Test("times of day and weekdays with times parse sorted and unique; never is nothing; anything else is refused")
    func parsing() {
        #expect(PublicationSchedule("18:00, 06:00,06:00")?.text == ["06:00", "18:00"])
        #expect(PublicationSchedule("never")?.isNever == true)
        #expect(PublicationSchedule("thu 06:00, Mon 06:00")?.text == ["mon 06:00", "thu 06:00"])
        #expect(PublicationSchedule("mon 06:00")?.days.weekdays == [1])
        #expect(PublicationSchedule("mon 06:00,18:00")?.days == .daily, "a daily slot makes every day a publication day")
        #expect(PublicationSchedule("06:00")?.days == .daily)
        for bad in ["", "6:00", "24:00", "06:60", "06", ",", "noon", "monday 06:00", "mon", "mon  06:00 x", "06:00,"] {
            #expect(PublicationSchedule(bad) == nil, "\(bad)")
        }
    }

    @Test("a weekly slot is found a week back and ahead, in the campus zone")
    func weekly() {
        let mondays = PublicationSchedule(slots: [.init(weekday: 1, minute: 6 * 60)])
        // Friday 27 November 2026, 12:00 in Chicago: the last Monday 06:00 was the 23rd, the next the 30th.
        let friday = date("2026-11-27T18:00:00Z")
        #expect(mondays.lastSlot(atOrBefore: friday, in: chicago) == date("2026-11-23T12:00:00Z"))
        #expect(mondays.nextSlot(after: friday, in: chicago) == date("2026-11-30T12:00:00Z"))
        // Monday itself, before and after 06:00.
        #expect(mondays.lastSlot(atOrBefore: date("2026-11-30T11:00:00Z"), in: chicago) == date("2026-11-23T12:00:00Z"))
        #expect(mondays.lastSlot(atOrBefore: date("2026-11-30T12:00:00Z"), in: chicago) == date("2026-11-30T12:00:00Z"))
    }

    @Test("the slot a catch-up publishes for and the next one, in the campus zone, across midnight and the autumn clock change")
    func slots() {
        let schedule = PublicationSchedule(times: [6 * 60, 18 * 60])
        // 05:00 in Chicago (CST, UTC-6): the last slot was yesterday 18:00, the next today 06:00.
        let early = date("2026-11-23T11:00:00Z")
        #expect(schedule.lastSlot(atOrBefore: early, in: chicago) == date("2026-11-23T00:00:00Z"))
        #expect(schedule.nextSlot(after: early, in: chicago) == date("2026-11-23T12:00:00Z"))
        // Exactly at a slot: that slot has come, the next is the evening.
        #expect(schedule.lastSlot(atOrBefore: date("2026-11-23T12:00:00Z"), in: chicago) == date("2026-11-23T12:00:00Z"))
        #expect(schedule.nextSlot(after: date("2026-11-23T12:00:00Z"), in: chicago) == date("2026-11-24T00:00:00Z"))
        // 1 November 2026, clocks go back at 02:00: 06:00 is CST (12:00 UTC), the day before's 18:00 CDT (23:00 UTC).
        let autumn = date("2026-11-01T10:00:00Z")
        #expect(schedule.lastSlot(atOrBefore: autumn, in: chicago) == date("2026-10-31T23:00:00Z"))
        #expect(schedule.nextSlot(after: autumn, in: chicago) == date("2026-11-01T12:00:00Z"))
        #expect(PublicationSchedule(times: []).lastSlot(atOrBefore: early, in: chicago) == nil)
    }
}
