import Foundation

/// When numbers are published by themselves: at fixed times of day in the service's time zone,
/// or never (then only `geoserve publish` and `POST /v1/publications` publish).
///
/// Why a schedule at all: numbers that move with every verification tell anyone who reads before
/// and after one where it landed. Numbers that move at known times, carrying everything changed
/// since, tell only what the publication's protection lets through.
struct PublicationSchedule: Sendable, Equatable {
    /// Minutes after midnight, sorted and unique; empty: never.
    let times: [Int]

    /// Once a day at 06:00: the night's verifications are out before the campus wakes.
    static let `default` = PublicationSchedule(times: [6 * 60])

    init(times: [Int]) {
        self.times = Array(Set(times)).sorted()
    }

    /// `HH:MM[,HH:MM…]` or `never`.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "never" {
            self.init(times: [])
            return
        }
        var times: [Int] = []
        for part in trimmed.split(separator: ",") {
            let hm = part.trimmingCharacters(in: .whitespaces).split(separator: ":")
            guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m) else {
                return nil
            }
            times.append(h * 60 + m)
        }
        guard !times.isEmpty else { return nil }
        self.init(times: times)
    }

    /// The times as `HH:MM`.
    var text: [String] {
        times.map { t in
            let (h, m) = (t / 60, t % 60)
            return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
        }
    }

    /// The latest scheduled moment at or before `now`; nil when never.
    func lastSlot(atOrBefore now: Date, in zone: TimeZone) -> Date? {
        slots(around: now, in: zone).last { $0 <= now }
    }

    /// The first scheduled moment after `now`; nil when never.
    func nextSlot(after now: Date, in zone: TimeZone) -> Date? {
        slots(around: now, in: zone).first { $0 > now }
    }

    /// The scheduled moments of the day before, the day of and the day after `now`, in order.
    /// Through `Calendar`, so a time that a daylight-saving change skips moves with it.
    private func slots(around now: Date, in zone: TimeZone) -> [Date] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: now)
        return [-1, 0, 1].flatMap { offset -> [Date] in
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { return [] }
            return times.compactMap { calendar.date(bySettingHour: $0 / 60, minute: $0 % 60, second: 0, of: day) }
        }.sorted()
    }
}
