import Foundation
import Testing
@testable import geoserve

@Suite("publication schedule")
struct PublicationScheduleTests {
    let chicago = TimeZone(identifier: "America/Chicago")!

    private func date(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    @Test("times of day parse sorted and unique; never is no times; anything else is refused")
    func parsing() {
        #expect(PublicationSchedule("18:00, 06:00,06:00")?.text == ["06:00", "18:00"])
        #expect(PublicationSchedule("never")?.times == [])
        for bad in ["", "6:00", "24:00", "06:60", "06", ",", "noon"] { #expect(PublicationSchedule(bad) == nil, "\(bad)") }
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
