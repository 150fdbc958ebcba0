import DomainKernel
import Foundation

/// Status notifications waiting to be delivered: every change of a report's status writes one
/// event in the transaction that makes the change (both backends' `transition`), so an event
/// exists exactly when its change committed. A dispatcher claims due events for a while (a
/// lease, so that processes sharing the store do not send the same event at once), delivers
/// them to each configured endpoint and records what arrived.
///
/// Concurrency contract: `claimNotifications` hands an event to one caller until its lease ends;
/// a caller that dies mid-delivery leaves it to be claimed again when the lease ends (delivery
/// is at least once; events carry a stable id for receivers to drop repeats).
public protocol NotificationOutbox: Sendable {
    /// Claims up to `limit` events that are not done and due at `now`, oldest first, until
    /// `now + lease`.
    func claimNotifications(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxEvent]

    /// Records that an event reached one endpoint (named by a digest, never its address).
    func recordDelivery(eventID: String, endpoint: String, at: Date) async throws

    /// Marks an event delivered everywhere it had to go.
    func completeNotification(eventID: String, at: Date) async throws

    /// Puts an event back for another attempt at `nextAttempt`, counting the failed one.
    func retryNotification(eventID: String, nextAttempt: Date, error: String) async throws

    /// Marks every event done without delivery: nowhere is configured to send them.
    func completeAllNotifications(at: Date) async throws

    /// Deletes done events older than `before`, so the outbox does not grow for ever.
    func pruneNotifications(doneBefore: Date) async throws

    /// Events not yet done.
    func notificationBacklog() async throws -> Int

    /// Events not yet done that have failed at least once, oldest first, at most `limit`: the
    /// dead letters of endpoints that do not answer, for the operator to see why.
    func failingNotifications(limit: Int) async throws -> [FailingNotification]
}

/// An event some endpoint has not taken yet, with what went wrong last.
public struct FailingNotification: Hashable, Sendable {
    public let id: String
    public let status: ReportStatus
    public let at: Date
    public let attempts: Int
    public let nextAttempt: Date
    public let lastError: String
    /// Endpoints (digests) it already reached.
    public let deliveredTo: Int

    public init(id: String, status: ReportStatus, at: Date, attempts: Int, nextAttempt: Date, lastError: String, deliveredTo: Int) {
        self.id = id
        self.status = status
        self.at = at
        self.attempts = attempts
        self.nextAttempt = nextAttempt
        self.lastError = lastError
        self.deliveredTo = deliveredTo
    }

    /// What the failing list is, for both stores: not done, failed at least once, oldest first;
    /// `limit` is the placeholder of the row limit in the store's SQL.
    public static func query(limit: String) -> String {
        """
        SELECT id, status, at, attempts, next_attempt_at, coalesce(last_error, ''),
               (SELECT count(*) FROM outbox_deliveries d WHERE d.event_id = outbox.id)
        FROM outbox WHERE done_at IS NULL AND attempts > 0 ORDER BY at, id LIMIT \(limit)
        """
    }

    /// A row of `query`, read through the store's column getters; nil for a status this build
    /// does not know.
    public init?(text: (Int) -> String, int: (Int) -> Int64) throws {
        guard let status = ReportStatus(rawValue: text(1)) else { return nil }
        self.init(id: text(0), status: status, at: try Timestamp.parse(text(2)), attempts: Int(int(3)),
                  nextAttempt: try Timestamp.parse(text(4)), lastError: text(5), deliveredTo: Int(int(6)))
    }
}

/// One status change to tell the configured endpoints about: nothing of the report's content
/// but its id, its kind and its new status.
public struct OutboxEvent: Hashable, Sendable {
    public let id: String
    public let reportID: String
    public let kind: ReportKind
    public let status: ReportStatus
    public let at: Date
    /// Failed attempts so far.
    public let attempts: Int
    /// Endpoints (digests) it already reached.
    public let deliveredTo: Set<String>

    public init(id: String, reportID: String, kind: ReportKind, status: ReportStatus, at: Date, attempts: Int, deliveredTo: Set<String>) {
        self.id = id
        self.reportID = reportID
        self.kind = kind
        self.status = status
        self.at = at
        self.attempts = attempts
        self.deliveredTo = deliveredTo
    }
}
