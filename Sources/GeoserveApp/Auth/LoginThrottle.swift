import Crypto
import Foundation
import Storage
import Support

/// Failed logins allowed per account and per client address in a window, counted in the store
/// so that every process sharing it counts the same failures. Checked before bcrypt runs, so a
/// refused guess costs no hashing; a correct password during a lockout is refused too, or the
/// guessing would simply go on.
struct LoginThrottle: Sendable {
    let store: any LoginThrottleStore
    /// Failures per account that lock it until the window ends (`AppConfiguration` sets 10).
    let perAccount: Int
    /// Failures per client address: more, since a campus network puts many people behind one.
    let perAddress: Int
    let window: TimeInterval

    /// The keys a login counts under. The email is hashed: the table must not become a list of
    /// the addresses people tried.
    static func keys(email: String, address: String) -> (account: String, address: String) {
        ("account:" + SHA256.hash(data: Data(email.lowercased().utf8)).hexString, "address:" + address)
    }

    /// Too many failed logins: the seconds until the window that counts them ends.
    struct Throttled: Error, Equatable {
        let retryAfter: Int
    }

    /// Throws `Throttled` (answered `429 rate_limited` with `Retry-After`) while either key is
    /// over its budget.
    func check(email: String, address: String, now: Date) async throws {
        let k = Self.keys(email: email, address: address)
        let failures = try await store.loginFailures(keys: [k.account, k.address], now: now, window: window)
        for (key, limit) in [(k.account, perAccount), (k.address, perAddress)] {
            guard let f = failures[key], f.count >= limit else { continue }
            throw Throttled(retryAfter: max(1, Int(f.windowStart.addingTimeInterval(window).timeIntervalSince(now).rounded(.up))))
        }
    }

    func failed(email: String, address: String, now: Date) async throws {
        let k = Self.keys(email: email, address: address)
        try await store.recordLoginFailure(keys: [k.account, k.address], now: now, window: window)
    }

    func succeeded(email: String, address: String) async throws {
        try await store.clearLoginFailures(key: Self.keys(email: email, address: address).account)
    }
}
