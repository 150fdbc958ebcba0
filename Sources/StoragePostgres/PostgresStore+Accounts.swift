import DomainKernel
import Foundation
import ReportVerification
import Storage

extension PostgresStore: AccountStore {
    private static let accountColumns = "id, email, role, disabled, created_at, password_hash"

    private static func account(_ s: PostgresResult, _ i: Int = 0) -> StoredAccount {
        StoredAccount(id: s.string(i, 0), email: s.string(i, 1), role: Role(rawValue: s.string(i, 2)) ?? .reporter,
                      disabled: s.string(i, 3) == "t", createdAt: Timestamp.parse(s.string(i, 4)), passwordHash: s.string(i, 5))
    }

    public func createAccount(email: String, role: Role, passwordHash: String) async throws -> StoredAccount {
        let id = TimeOrderedID.make()
        return try await pool.transaction("create an account") { db in
            // The unique index on lower(email) decides between two processes creating one address.
            let s = try db.query("""
                INSERT INTO accounts (id, email, role, password_hash, disabled, created_at) VALUES ($1, $2, $3, $4, false, $5)
                ON CONFLICT (lower(email)) DO NOTHING RETURNING \(Self.accountColumns)
                """, [.text(id), .text(email), .text(role.rawValue), .text(passwordHash), .text(Timestamp.now())])
            guard s.count > 0 else { throw StorageError.conflict("an account with this email") }
            return Self.account(s)
        }
    }

    public func account(email: String) async throws -> StoredAccount? {
        try await pool.run("read an account") { db in
            let s = try db.query("SELECT \(Self.accountColumns) FROM accounts WHERE lower(email) = lower($1)", [.text(email)])
            return s.count > 0 ? Self.account(s) : nil
        }
    }

    public func account(id: String) async throws -> StoredAccount? {
        try await pool.run("read an account") { db in
            let s = try db.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = $1", [.text(id)])
            return s.count > 0 ? Self.account(s) : nil
        }
    }

    public func accounts() async throws -> [StoredAccount] {
        try await pool.run("list accounts") { db in
            let s = try db.query("SELECT \(Self.accountColumns) FROM accounts ORDER BY created_at, id")
            return (0..<s.count).map { Self.account(s, $0) }
        }
    }

    public func updateAccount(id: String, role: Role?, disabled: Bool?) async throws -> StoredAccount {
        try await pool.transaction("change an account") { db in
            guard try db.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [.text(id)]).count > 0 else {
                throw StorageError.notFound("account \(id)")
            }
            if let role {
                try db.query("UPDATE accounts SET role = $1 WHERE id = $2", [.text(role.rawValue), .text(id)])
            }
            if let disabled {
                try db.query("UPDATE accounts SET disabled = $1 WHERE id = $2", [.text(disabled ? "true" : "false"), .text(id)])
                if disabled {
                    try db.query("UPDATE tokens SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL", [.text(Timestamp.now()), .text(id)])
                }
            }
            return Self.account(try db.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = $1", [.text(id)]))
        }
    }

    public func storeToken(hash: String, accountID: String, expiresAt: Date) async throws {
        try await pool.transaction("store a token") { db in
            _ = try db.query("INSERT INTO tokens (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
                         [.text(hash), .text(accountID), .text(Timestamp.now()), .text(Timestamp.format(expiresAt))])
        }
    }

    public func account(tokenHash: String, now: Date) async throws -> StoredAccount? {
        let columns = Self.accountColumns.split(separator: ",").map { "a." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        return try await pool.run("read a token") { db in
            let s = try db.query("""
                SELECT \(columns) FROM tokens t JOIN accounts a ON a.id = t.account_id
                WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2 AND NOT a.disabled
                """, [.text(tokenHash), .text(Timestamp.format(now))])
            return s.count > 0 ? Self.account(s) : nil
        }
    }

    public func revokeToken(hash: String) async throws {
        try await pool.transaction("revoke a token") { db in
            _ = try db.query("UPDATE tokens SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL", [.text(Timestamp.now()), .text(hash)])
        }
    }

    public func revokeTokens(accountID: String) async throws {
        try await pool.transaction("revoke tokens") { db in
            _ = try db.query("UPDATE tokens SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL", [.text(Timestamp.now()), .text(accountID)])
        }
    }
}
