import Crypto
import Foundation
import Storage
import Support

/// Failed logins held to budgets that slow a guesser without locking the owner out.
///
/// Account lockout is itself an attack (OWASP's Authentication Cheat Sheet): ten wrong passwords
/// from anywhere would keep an admin out of the console during an incident. So the budgets are:
/// - per (account, address): `perAccount` failures in a window, then that pair is refused until
///   the window ends — one address guessing one account gets `perAccount` tries per window;
/// - per address: `perAddress` failures across all accounts (a campus network puts many people
///   behind one address, hence more);
/// - per account: once `perAccount` failures from anywhere are in the window, only addresses that
///   signed in to the account within `knownFor` may still try (each within its own pair budget).
///   Guessing spread over many addresses stops there, while the owner, at an address they have
///   signed in from, is never refused for someone else's failures.
///
/// Counted in the store, so every process sharing it counts the same failures, and checked before
/// bcrypt runs, so a refused guess costs no hashing. A refused try is not counted, so a guesser
/// cannot push the window along. The keys are hashed where they name an account: the table must not
/// become a list of the emails people tried, or of where each account signs in from.
struct LoginThrottle: Sendable {
    let store: any LoginThrottleStore
    /// Failures per account from addresses it does not know, and per (account, address) pair
    /// (`AppConfiguration` sets 10).
    let perAccount: Int
    /// Failures per client address, over all accounts.
    let perAddress: Int
    let window: TimeInterval
    /// How long an address a login succeeded from stays known to its account.
    var knownFor: TimeInterval = 30 * 86_400

    /// The keys a login counts under.
    struct Keys {
        let account: String
        let address: String
        let pair: String
        let known: String
    }

    static func keys(email: String, address: String) -> Keys {
        let account = SHA256.hash(data: Data(email.lowercased().utf8)).hexString
        let pair = SHA256.hash(data: Data((account + "\u{1F}" + address).utf8)).hexString
        return Keys(account: "account:" + account, address: "address:" + address, pair: "pair:" + pair, known: "known:" + pair)
    }

    /// Too many failed logins: the seconds until the window that counts them ends.
    struct Throttled: Error, Equatable {
        let retryAfter: Int
    }

    /// Throws `Throttled` (answered `429 rate_limited` with `Retry-After`) while the pair or the
    /// address is over its budget, or the account is and this address is not one it knows.
    func check(email: String, address: String, now: Date) async throws {
        let k = Self.keys(email: email, address: address)
        let counts = try await store.loginEvents(keys: [k.pair, k.address, k.account], now: now, window: window)
        func spent(_ key: String, _ limit: Int) -> LoginEvents? { counts[key].flatMap { $0.count >= limit ? $0 : nil } }
        var refusal = spent(k.pair, perAccount) ?? spent(k.address, perAddress)
        if refusal == nil, let account = spent(k.account, perAccount),
           try await store.loginEvents(keys: [k.known], now: now, window: knownFor)[k.known] == nil {
            refusal = account
        }
        guard let refusal else { return }
        throw Throttled(retryAfter: max(1, Int(refusal.windowStart.addingTimeInterval(window).timeIntervalSince(now).rounded(.up))))
    }

    func failed(email: String, address: String, now: Date) async throws {
        let k = Self.keys(email: email, address: address)
        try await store.recordLoginEvent(keys: [k.pair, k.address, k.account], now: now, window: window)
    }

    /// The pair's failures are forgotten and the address becomes known to the account. The
    /// account's count stays: an owner signing in must not give a guesser elsewhere a fresh budget.
    func succeeded(email: String, address: String, now: Date) async throws {
        let k = Self.keys(email: email, address: address)
        try await store.clearLoginEvents(key: k.pair)
        // Cleared first, so that the known window starts at this success, not the first one.
        try await store.clearLoginEvents(key: k.known)
        try await store.recordLoginEvent(keys: [k.known], now: now, window: knownFor)
    }
}
