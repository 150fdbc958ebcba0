import DomainKernel
import Foundation
import ReportVerification
import Storage

extension PostgresStore: AccountStore {
    static let accountColumns = "id, email, role, disabled, created_at, password_hash"

    static func account(_ s: PostgresResult, _ i: Int = 0) throws -> StoredAccount {
        StoredAccount(id: s.string(i, 0), email: s.string(i, 1), role: Role(rawValue: s.string(i, 2)) ?? .reporter,
                      disabled: s.string(i, 3) == "t", createdAt: try Timestamp.parse(s.string(i, 4)), passwordHash: s.string(i, 5))
    }

    public func createAccount(email: String, role: Role, passwordHash: String) async throws -> StoredAccount {
        let zone = timeZone
        return try await pool.transaction("create an account") { db in
            try PostgresWrites(db: db, zone: zone).createAccount(email: email, role: role, passwordHash: passwordHash)
        }
    }

    public func account(email: String) async throws -> StoredAccount? {
        try await pool.run("read an account") { db in
            let s = try db.query("SELECT \(Self.accountColumns) FROM accounts WHERE lower(email) = lower($1)", [.text(email)])
            return s.count > 0 ? try Self.account(s) : nil
        }
    }

    public func account(id: String) async throws -> StoredAccount? {
        try await pool.run("read an account") { db in
            let s = try db.query("SELECT \(Self.accountColumns) FROM accounts WHERE id = $1", [.text(id)])
            return s.count > 0 ? try Self.account(s) : nil
        }
    }

    public func accounts() async throws -> [StoredAccount] {
        try await pool.run("list accounts") { db in
            let s = try db.query("SELECT \(Self.accountColumns) FROM accounts ORDER BY created_at, id")
            return try (0..<s.count).map { try Self.account(s, $0) }
        }
    }

    public func updateAccount(id: String, role: Role?, disabled: Bool?) async throws -> StoredAccount {
        let zone = timeZone
        return try await pool.transaction("change an account") { db in
            try PostgresWrites(db: db, zone: zone).updateAccount(id: id, role: role, disabled: disabled)
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
            return s.count > 0 ? try Self.account(s) : nil
        }
    }

    public func revokeToken(hash: String) async throws {
        try await pool.transaction("revoke a token") { db in
            _ = try db.query("UPDATE tokens SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL", [.text(Timestamp.now()), .text(hash)])
        }
    }

    public func revokeTokens(accountID: String) async throws {
        let zone = timeZone
        try await pool.transaction("revoke tokens") { db in try PostgresWrites(db: db, zone: zone).revokeTokens(accountID: accountID, at: Timestamp.now()) }
    }
}

extension PostgresWrites: AccountWrites {
    func insertAccount(id: String, email: String, role: Role, passwordHash: String, at: String) throws -> StoredAccount? {
        // The unique index on lower(email) decides between two processes creating one address.
        let s = try db.query("""
            INSERT INTO accounts (id, email, role, password_hash, disabled, created_at) VALUES ($1, $2, $3, $4, false, $5)
            ON CONFLICT (lower(email)) DO NOTHING RETURNING \(PostgresStore.accountColumns)
            """, [.text(id), .text(email), .text(role.rawValue), .text(passwordHash), .text(at)])
        return s.count > 0 ? try PostgresStore.account(s) : nil
    }

    func lockAccount(id: String) throws -> Bool {
        try db.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [.text(id)]).count > 0
    }

    func setRole(accountID: String, _ role: Role) throws {
        try db.query("UPDATE accounts SET role = $1 WHERE id = $2", [.text(role.rawValue), .text(accountID)])
    }

    func setDisabled(accountID: String, _ disabled: Bool) throws {
        try db.query("UPDATE accounts SET disabled = $1 WHERE id = $2", [.text(disabled ? "true" : "false"), .text(accountID)])
    }

    func revokeTokens(accountID: String, at: String) throws {
        try db.query("UPDATE tokens SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL", [.text(at), .text(accountID)])
    }

    func account(id: String) throws -> StoredAccount? {
        let s = try db.query("SELECT \(PostgresStore.accountColumns) FROM accounts WHERE id = $1", [.text(id)])
        return s.count > 0 ? try PostgresStore.account(s) : nil
    }
}
