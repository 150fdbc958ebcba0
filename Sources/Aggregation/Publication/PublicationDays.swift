import DomainKernel

/// The weekdays publications are made on. A first publication that meets a history replays it
/// in the intervals this schedule would have had, so history is released as the configured
/// publications would have released it: day by day for a daily schedule, week by week for a
/// weekly one (which a quiet campus needs, see `PublicationPlanner`).
public struct PublicationDays: Sendable, Equatable {
    /// ISO weekdays, Monday = 1 … Sunday = 7; never empty.
    public let weekdays: Set<Int>

    public static let daily = PublicationDays(all: Set(1...7))

    /// Nil when `weekdays` is empty or names no weekday.
    public init?(weekdays: Set<Int>) {
        guard !weekdays.isEmpty, weekdays.isSubset(of: 1...7) else { return nil }
        self.weekdays = weekdays
    }

    private init(all: Set<Int>) { weekdays = all }

    /// The publication day whose interval holds `day`: the first publication day on or after it.
    public func intervalEnd(for day: Day) -> Day {
        var end = day
        while !weekdays.contains(end.isoWeekday) { end = end.adding(days: 1) }
        return end
    }
}
