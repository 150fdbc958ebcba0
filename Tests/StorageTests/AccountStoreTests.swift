import Foundation
import ReportVerification
import Testing
import Storage

@Suite("account store")
struct AccountStoreTests {
    @Test("emails are unique regardless of case", arguments: StoreBackend.allCases)
    func uniqueEmail(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let a = try await s.createAccount(email: "Ada@Campus.example", role: .verifier, passwordHash: "h")
        await #expect(throws: StorageError.conflict("an account with this email")) {
            try await s.createAccount(email: "ada@campus.example", role: .viewer, passwordHash: "h")
        }
        #expect(try await s.account(email: "ADA@campus.example")?.id == a.id)
        #expect(try await s.accounts().count == 1)
    }

    @Test("a token works until it expires, is revoked, or its account is disabled", arguments: StoreBackend.allCases)
    func tokenLifecycle(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let a = try await s.createAccount(email: "r@campus.example", role: .reporter, passwordHash: "h")
        let now = Date()
        try await s.storeToken(hash: "t1", accountID: a.id, expiresAt: now.addingTimeInterval(60))
        try await s.storeToken(hash: "t2", accountID: a.id, expiresAt: now.addingTimeInterval(60))
        #expect(try await s.account(tokenHash: "t1", now: now)?.id == a.id)
        #expect(try await s.account(tokenHash: "t1", now: now.addingTimeInterval(61)) == nil)
        try await s.revokeToken(hash: "t1")
        #expect(try await s.account(tokenHash: "t1", now: now) == nil)
        #expect(try await s.account(tokenHash: "t2", now: now) != nil)
        _ = try await s.updateAccount(id: a.id, role: nil, disabled: true)
        #expect(try await s.account(tokenHash: "t2", now: now) == nil)
        _ = try await s.updateAccount(id: a.id, role: .viewer, disabled: false)
        #expect(try await s.account(tokenHash: "t2", now: now) == nil, "disabling revoked the token for good")
        #expect(try await s.account(id: a.id)?.role == .viewer)
        await #expect(throws: StorageError.notFound("account nope")) { try await s.updateAccount(id: "nope", role: .admin, disabled: nil) }
    }
}
