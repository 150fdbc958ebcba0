import Foundation
import ReportVerification

/// The writes of account changes, inside a transaction the backend has opened; the rules (one
/// account per address, a disabled account's tokens revoked with it) are written once, below.
public protocol AccountWrites {
    /// The new account, or nil when the address (in any case) has one already.
    func insertAccount(id: String, email: String, role: Role, passwordHash: String, at: String) throws -> StoredAccount?
    /// Whether the account exists; holds it against other changes until the commit.
    func lockAccount(id: String) throws -> Bool
    func setRole(accountID: String, _ role: Role) throws
    func setDisabled(accountID: String, _ disabled: Bool) throws
    func revokeTokens(accountID: String, at: String) throws
    func account(id: String) throws -> StoredAccount?
}

extension AccountWrites {
    public func createAccount(email: String, role: Role, passwordHash: String) throws -> StoredAccount {
        guard let account = try insertAccount(id: TimeOrderedID.make(), email: email, role: role, passwordHash: passwordHash, at: Timestamp.now()) else {
            throw StorageError.conflict("an account with this email")
        }
        return account
    }

    /// Changes what is given; disabling an account also revokes every token it holds, so a
    /// signed-in session ends with it.
    public func updateAccount(id: String, role: Role?, disabled: Bool?) throws -> StoredAccount {
        guard try lockAccount(id: id) else { throw StorageError.notFound("account \(id)") }
        if let role { try setRole(accountID: id, role) }
        if let disabled {
            try setDisabled(accountID: id, disabled)
            if disabled { try revokeTokens(accountID: id, at: Timestamp.now()) }
        }
        guard let account = try account(id: id) else { throw StorageError.notFound("account \(id)") }
        return account
    }
}
