import Foundation

/// A covid self-report within 14 days of the reporter's last one that counts (see
/// `ResubmissionRule`); the store keeps nothing of it.
public struct ResubmissionTooSoon: Error, Hashable, Sendable {
    /// When the next report becomes possible.
    public let opens: Date

    public init(opens: Date) {
        self.opens = opens
    }
}
