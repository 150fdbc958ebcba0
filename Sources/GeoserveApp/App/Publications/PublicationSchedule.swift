import Aggregation
import DomainKernel
import Foundation

/// When numbers are published by themselves: at fixed times of day in the service's time zone,
/// every day or on named weekdays (`mon 06:00`), or never (then only `geoserve publish` and
/// `POST /v1/publications` publish).
///
/// Why a schedule at all: numbers that move with every verification tell anyone who reads before
/// and after one where it landed. Numbers that move at known times, carrying everything changed
/// since, tell only what the publication's protection lets through. A publication releases only
/// when its interval saw more than k changes of a kind, so a quiet campus publishes weekly: a
/// week gathers what a day does not.
package struct PublicationSchedule: Sendable, Equatable {
    /// One scheduled moment: a time of day, every day or on one ISO weekday (Monday = 1).
    struct Slot: Sendable, Hashable, Comparable {
        let weekday: Int?
        let minute: Int

        static func < (a: Slot, b: Slot) -> Bool { (a.weekday ?? 0, a.minute) < (b.weekday ?? 0, b.minute) }
    }

    /// Sorted and unique; empty: never.
    let slots: [Slot]

    /// Once a day at 06:00: the night's verifications are out before the campus wakes.
    static let `default` = PublicationSchedule(times: [6 * 60])

    static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    init(slots: [Slot]) {
        self.slots = Array(Set(slots)).sorted()
    }

    /// Every day at these minutes after midnight.
    init(times: [Int]) {
        self.init(slots: times.map { Slot(weekday: nil, minute: $0) })
    }

    /// `[ddd ]HH:MM[,[ddd ]HH:MM…]` (ddd a weekday: mon … sun) or `never`.
    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "never" {
            self.init(slots: [])
            return
        }
        var slots: [Slot] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let words = part.split(separator: " ")
            guard (1...2).contains(words.count) else { return nil }
            var weekday: Int?
            if words.count == 2 {
                guard let index = Self.weekdayNames.firstIndex(of: String(words[0])) else { return nil }
                weekday = index + 1
            }
            let hm = words.last!.split(separator: ":")
            guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m) else {
                return nil
            }
            slots.append(Slot(weekday: weekday, minute: h * 60 + m))
        }
        guard !slots.isEmpty else { return nil }
        self.init(slots: slots)
    }

    /// Whether nothing is scheduled.
    package var isNever: Bool { slots.isEmpty }

    /// The slots as `HH:MM` or `ddd HH:MM`.
    package var text: [String] {
        slots.map { slot in
            let (h, m) = (slot.minute / 60, slot.minute % 60)
            let time = (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
            return slot.weekday.map { "\(Self.weekdayNames[$0 - 1]) \(time)" } ?? time
        }
    }

    /// The weekdays publications are made on, for replaying a history in the schedule's
    /// intervals: every day when nothing (or something daily) is scheduled.
    package var days: PublicationDays {
        guard !slots.isEmpty, slots.allSatisfy({ $0.weekday != nil }) else { return .daily }
        return PublicationDays(weekdays: Set(slots.compactMap(\.weekday))) ?? .daily
    }

    /// The latest scheduled moment at or before `now`; nil when never.
    func lastSlot(atOrBefore now: Date, in zone: TimeZone) -> Date? {
        moments(around: now, in: zone).last { $0 <= now }
    }

    /// The first scheduled moment after `now`; nil when never.
    func nextSlot(after now: Date, in zone: TimeZone) -> Date? {
        moments(around: now, in: zone).first { $0 > now }
    }

    /// The scheduled moments from a week before to a week after `now`, in order. Through
    /// `Calendar`, so a time that a daylight-saving change skips moves with it.
    private func moments(around now: Date, in zone: TimeZone) -> [Date] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: now)
        let todayWeekday = Day.containing(now, in: zone).isoWeekday
        return (-7...7).flatMap { offset -> [Date] in
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { return [] }
            let weekday = (todayWeekday - 1 + offset % 7 + 7) % 7 + 1
            return slots.filter { $0.weekday == nil || $0.weekday == weekday }
                .compactMap { calendar.date(bySettingHour: $0.minute / 60, minute: $0.minute % 60, second: 0, of: day) }
        }.sorted()
    }
}
