import Foundation

/// Login events counted per key in fixed windows, in the store so that every process sharing it
/// counts the same events: a password guesser spread over several processes behind a load balancer
/// meets one budget, not one per process. The login throttle counts failures under an account, an
/// address and an (account, address) pair, and successes under a pair's `known:` key (a window of
/// its own, restarted at each success).
public protocol LoginThrottleStore: Sendable {
    /// The events counted under each key whose window, started at its first event, is still open
    /// at `now`; keys without one are absent.
    func loginEvents(keys: [String], now: Date, window: TimeInterval) async throws -> [String: LoginEvents]

    /// Counts one event under each key, opening a new window where the last has closed.
    func recordLoginEvent(keys: [String], now: Date, window: TimeInterval) async throws

    /// Forgets a key's events.
    func clearLoginEvents(key: String) async throws
}

/// A key's events in its open window.
public struct LoginEvents: Hashable, Sendable {
    public let count: Int
    public let windowStart: Date

    public init(count: Int, windowStart: Date) {
        self.count = count
        self.windowStart = windowStart
    }
}
