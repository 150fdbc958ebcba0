import Foundation

/// "One COVID self-report per reporter per 14 days" (COVID Lens: a user may not submit another
/// form within two weeks of a submission).
public enum ResubmissionRule {
    public static let window: TimeInterval = 14 * 24 * 3600

    /// When the next report is possible, or nil when it is possible now. Withdrawn and rejected
    /// reports do not count: a mistaken report taken back, or refused, should not lock the
    /// reporter out of reporting a real case.
    public static func nextAllowed(after previous: [(submittedAt: Date, status: ReportStatus)], now: Date) -> Date? {
        let counting = previous.filter { $0.status != .withdrawn && $0.status != .rejected }.map(\.submittedAt)
        guard let last = counting.max() else { return nil }
        let opens = last.addingTimeInterval(window)
        return opens > now ? opens : nil
    }
}
