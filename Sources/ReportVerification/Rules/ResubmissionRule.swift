import DomainKernel
import Foundation

/// "One COVID self-report per reporter per 14 days": COVID Lens says a user "will not be allowed
/// to submit another form within two weeks of submission". One illness, one report — a second
/// report within the window would count the same case twice.
///
/// The window runs from the previous report's submission instant, exactly 14 × 24 hours, not
/// from its test date (the document speaks of the submission) and not by calendar days (an
/// instant needs no time zone and every replica computes the same answer).
public enum ResubmissionRule {
    /// The window, in days.
    public static let windowDays = 14
    /// The window, in seconds.
    public static let window: TimeInterval = TimeInterval(windowDays) * 24 * 3600

    /// Whether a previous report in this status keeps the reporter from reporting again.
    ///
    /// Only reports that count in the numbers, or may still come to count, block: `pending` and
    /// `verified`. A `withdrawn` report was taken back as a mistake, a `rejected` one was found
    /// not to be a case, a `revoked` one was taken out of the numbers — none of them stands for a
    /// counted illness, and letting them block would lock a reporter with a real case out for two
    /// weeks. (A rejected report that a verifier reopens is pending again, and then it blocks.)
    public static func blocks(_ status: ReportStatus) -> Bool {
        switch status {
        case .pending, .verified: return true
        case .rejected, .withdrawn, .revoked: return false
        }
    }

    /// Whether the reporter may submit a covid report now.
    /// - Parameters:
    ///   - previous: the reporter's earlier covid reports, in any order.
    ///   - now: the present.
    /// - Returns: `.allowed`, or `.notBefore(date)` with the instant the next report becomes
    ///   possible; exactly 14 days after the latest blocking submission is already allowed.
    public static func decide(previous: [PriorCovidSubmission], now: Date) -> ResubmissionDecision {
        guard let latest = previous.filter({ blocks($0.status) }).map(\.submittedAt).max() else { return .allowed }
        let opens = latest.addingTimeInterval(window)
        return opens > now ? .notBefore(opens) : .allowed
    }

    /// The instant the next report becomes possible, or nil when it is possible now; the same rule
    /// as `decide(previous:now:)`, shaped for callers that hold tuples.
    public static func nextAllowed(after previous: [(submittedAt: Date, status: ReportStatus)], now: Date) -> Date? {
        decide(previous: previous.map { PriorCovidSubmission(submittedAt: $0.submittedAt, status: $0.status) }, now: now).notBefore
    }
}

/// One of a reporter's earlier covid reports, as far as the 14-day rule cares.
public struct PriorCovidSubmission: Codable, Hashable, Sendable {
    /// When the report was submitted (not its test date).
    public var submittedAt: Date
    /// Its status now.
    public var status: ReportStatus

    /// Creates a prior submission.
    public init(submittedAt: Date, status: ReportStatus) {
        self.submittedAt = submittedAt
        self.status = status
    }
}

/// The 14-day rule's answer.
public enum ResubmissionDecision: Hashable, Sendable {
    /// A report may be submitted now.
    case allowed
    /// Not yet: the next report becomes possible at this instant.
    case notBefore(Date)

    /// The instant a report becomes possible, or nil when it is possible now.
    public var notBefore: Date? {
        if case .notBefore(let date) = self { return date }
        return nil
    }
}
