import DomainKernel

/// The time unit of an export row: calendar days, ISO weeks (Monday to Sunday) or calendar months.
public enum Bucket: String, CaseIterable, Sendable, Codable {
    case day, week, month

    /// The first day of the bucket containing `day`.
    public func start(of day: Day) -> Day {
        switch self {
        case .day: day
        case .week: day.weekStart
        case .month: day.monthStart
        }
    }

    /// The first day of the next bucket after the one starting at `start`.
    public func next(after start: Day) -> Day {
        switch self {
        case .day: start.adding(days: 1)
        case .week: start.adding(days: 7)
        case .month: start.nextMonthStart
        }
    }

    /// The buckets covering `from...to`, as (first day, last day), whole buckets: the first may
    /// start before `from` and the last end after `to`, so every row counts a full day, week or month.
    public func ranges(from: Day, to: Day) -> [(start: Day, end: Day)] {
        var out: [(start: Day, end: Day)] = []
        var start = start(of: from)
        while start <= to {
            let next = next(after: start)
            out.append((start, next.adding(days: -1)))
            start = next
        }
        return out
    }
}
