import Foundation
import ReportVerification

/// Persistence of accounts and bearer tokens. Tokens are stored only as hashes, so a copy of the
/// database does not hold usable credentials.
public protocol AccountStore: Sendable {
    /// Creates an account. Throws `StorageError.conflict` when the email is taken (case-insensitively).
    func createAccount(email: String, role: Role, passwordHash: String) async throws -> StoredAccount

    /// The account with this email (case-insensitive), or nil.
    func account(email: String) async throws -> StoredAccount?

    /// The account with this id, or nil.
    func account(id: String) async throws -> StoredAccount?

    /// Every account, oldest first.
    func accounts() async throws -> [StoredAccount]

    /// Changes role and/or disabled flag; disabling also revokes the account's tokens, in the same
    /// transaction. Throws `StorageError.notFound` for an unknown id.
    func updateAccount(id: String, role: Role?, disabled: Bool?) async throws -> StoredAccount

    /// Stores a token hash for an account, valid until `expiresAt`.
    func storeToken(hash: String, accountID: String, expiresAt: Date) async throws

    /// The account a token hash belongs to when the token is neither expired nor revoked and the
    /// account is not disabled; nil otherwise.
    func account(tokenHash: String, now: Date) async throws -> StoredAccount?

    /// Revokes one token (logout). Unknown hashes are ignored.
    func revokeToken(hash: String) async throws

    /// Revokes every token of an account.
    func revokeTokens(accountID: String) async throws
}
