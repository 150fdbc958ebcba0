import Foundation

/// Failed logins counted per key (an account, a client address) in fixed windows, in the store
/// so that every process sharing it counts the same failures: a password guesser spread over
/// several processes behind a load balancer meets one budget, not one per process.
public protocol LoginThrottleStore: Sendable {
    /// The failures counted under each key whose window, started at its first failure, is
    /// still open at `now`; keys without one are absent.
    func loginFailures(keys: [String], now: Date, window: TimeInterval) async throws -> [String: LoginFailures]

    /// Counts one failure under each key, opening a new window where the last has closed.
    func recordLoginFailure(keys: [String], now: Date, window: TimeInterval) async throws

    /// Forgets a key's failures (a successful login).
    func clearLoginFailures(key: String) async throws
}

/// A key's failures in its open window.
public struct LoginFailures: Hashable, Sendable {
    public let count: Int
    public let windowStart: Date

    public init(count: Int, windowStart: Date) {
        self.count = count
        self.windowStart = windowStart
    }
}
