import DomainKernel
import Foundation
import ReportVerification
import Storage

extension SQLiteStore: AccountStore {
    static let accountColumns = "id, email, role, disabled, created_at, password_hash"

    static func account(_ s: SQLiteStatement) throws -> StoredAccount {
        StoredAccount(id: s.text(0)!, email: s.text(1)!, role: Role(rawValue: s.text(2)!) ?? .reporter,
                      disabled: s.int(3) != 0, createdAt: try Timestamp.parse(s.text(4)!), passwordHash: s.text(5)!)
    }

    public func createAccount(email: String, role: Role, passwordHash: String) async throws -> StoredAccount {
        try await write { try $0.createAccount(email: email, role: role, passwordHash: passwordHash) }
    }

    public func account(email: String) async throws -> StoredAccount? {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.accountColumns) FROM accounts WHERE email = ?").bind(.text(email))
            return try s.step() ? Self.account(s) : nil
        }
    }

    public func account(id: String) async throws -> StoredAccount? {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?").bind(.text(id))
            return try s.step() ? Self.account(s) : nil
        }
    }

    public func accounts() async throws -> [StoredAccount] {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.accountColumns) FROM accounts ORDER BY created_at, id")
            var out: [StoredAccount] = []
            while try s.step() { out.append(try Self.account(s)) }
            return out
        }
    }

    public func updateAccount(id: String, role: Role?, disabled: Bool?) async throws -> StoredAccount {
        try await write { try $0.updateAccount(id: id, role: role, disabled: disabled) }
    }

    public func storeToken(hash: String, accountID: String, expiresAt: Date) async throws {
        try await run { db in
            try db.prepare("INSERT INTO tokens (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
                .bind(.text(hash), .text(accountID), .text(Timestamp.now()), .text(Timestamp.format(expiresAt))).run()
        }
    }

    public func account(tokenHash: String, now: Date) async throws -> StoredAccount? {
        let columns = Self.accountColumns.split(separator: ",").map { "a." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        return try await run { db in
            let s = try db.prepare("""
                SELECT \(columns) FROM tokens t JOIN accounts a ON a.id = t.account_id
                WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ? AND a.disabled = 0
                """).bind(.text(tokenHash), .text(Timestamp.format(now)))
            return try s.step() ? Self.account(s) : nil
        }
    }

    public func revokeToken(hash: String) async throws {
        try await run { db in
            try db.prepare("UPDATE tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL")
                .bind(.text(Timestamp.now()), .text(hash)).run()
        }
    }

    public func revokeTokens(accountID: String) async throws {
        try await write { try $0.revokeTokens(accountID: accountID, at: Timestamp.now()) }
    }
}

extension SQLiteWrites: AccountWrites {
    func insertAccount(id: String, email: String, role: Role, passwordHash: String, at: String) throws -> StoredAccount? {
        // SQLite has one writer: nobody takes the address between this check and the insert.
        if try db.prepare("SELECT 1 FROM accounts WHERE email = ?").bind(.text(email)).firstInt() != nil { return nil }
        try db.prepare("INSERT INTO accounts (id, email, role, password_hash, disabled, created_at) VALUES (?, ?, ?, ?, 0, ?)")
            .bind(.text(id), .text(email), .text(role.rawValue), .text(passwordHash), .text(at)).run()
        return try account(id: id)
    }

    func lockAccount(id: String) throws -> Bool {
        try db.prepare("SELECT 1 FROM accounts WHERE id = ?").bind(.text(id)).firstInt() != nil
    }

    func setRole(accountID: String, _ role: Role) throws {
        try db.prepare("UPDATE accounts SET role = ? WHERE id = ?").bind(.text(role.rawValue), .text(accountID)).run()
    }

    func setDisabled(accountID: String, _ disabled: Bool) throws {
        try db.prepare("UPDATE accounts SET disabled = ? WHERE id = ?").bind(.int(disabled ? 1 : 0), .text(accountID)).run()
    }

    func revokeTokens(accountID: String, at: String) throws {
        try db.prepare("UPDATE tokens SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL").bind(.text(at), .text(accountID)).run()
    }

    func account(id: String) throws -> StoredAccount? {
        let s = try db.prepare("SELECT \(SQLiteStore.accountColumns) FROM accounts WHERE id = ?").bind(.text(id))
        return try s.step() ? SQLiteStore.account(s) : nil
    }
}
