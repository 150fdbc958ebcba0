import Crypto
import Dispatch
import Foundation
import HummingbirdBcrypt
import Support

/// Password hashing and bearer tokens.
///
/// Passwords are hashed with bcrypt at cost 12 or more (about a quarter second each on one core,
/// on purpose). Tokens are 256 random bits from the system's cryptographic generator; only their
/// SHA-256 is stored, so the database never holds a usable token.
package struct Credentials: Sendable {
    /// bcrypt cost; 12 is the floor for stored passwords.
    let cost: UInt8
    /// How long a login token stays valid.
    let tokenLifetime: TimeInterval
    /// Where bcrypt runs: one bounded set of threads per process.
    let workers: BcryptWorkers

    package init(cost: UInt8 = 12, tokenLifetime: TimeInterval = 12 * 3600, workers: BcryptWorkers = .shared) {
        self.workers = workers
        self.cost = max(cost, 12)
        self.tokenLifetime = tokenLifetime
    }

    /// The bcrypt hash of a password, off Swift's cooperative pool (bcrypt is deliberately slow
    /// and would stall other tasks). Waits for a bcrypt thread: only admins set passwords.
    package func hash(password: String) async -> String {
        let cost = self.cost
        return await workers.run { Bcrypt.hash(Self.bcryptInput(password), cost: cost) }
    }

    /// Whether a password matches a bcrypt hash; throws `CredentialsBusy` when every bcrypt
    /// thread is taken and the queue behind them is full.
    func verify(password: String, hash: String) async throws -> Bool {
        try await workers.tryRun { Bcrypt.verify(Self.bcryptInput(password), hash: hash) }
    }

    /// A hash of a random password nobody knows, verified against when an email is unknown so that
    /// a failed login takes as long whether or not the account exists. Made once, on first use.
    static let decoyHash = Bcrypt.hash(newToken(), cost: 12)

    /// A new random bearer token (43 URL-safe characters).
    static func newToken() -> String {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return Data(bytes).base64URLEncoded
    }

    /// The stored form of a token: hex SHA-256.
    static func tokenHash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexString
    }

    /// The longest password taken, in characters: enough for any passphrase, and a bound on the
    /// work one login can ask for.
    static let maxPasswordLength = 1_024
    /// The shortest password taken, in characters.
    static let minPasswordLength = 10

    /// Password rule: long enough to resist guessing. Counted in Unicode scalars, as JSON
    /// Schema's `minLength` and `maxLength` count them.
    package static func checkPassword(_ password: String) -> String? {
        if password.unicodeScalars.count < minPasswordLength { return "a password needs at least \(minPasswordLength) characters" }
        if password.unicodeScalars.count > maxPasswordLength { return "a password may have at most \(maxPasswordLength) characters" }
        return nil
    }

    /// What bcrypt hashes. bcrypt reads at most 72 bytes, so a longer password is first reduced
    /// to its SHA-256 (44 base64 characters) and every byte of it counts; passwords of 72 bytes
    /// or fewer — all the ones stored before longer ones were taken — go in unchanged.
    static func bcryptInput(_ password: String) -> String {
        password.utf8.count <= 72 ? password : Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
