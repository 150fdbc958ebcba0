import Foundation
@testable import Storage
import Testing

/// The audit chain kept with a key from outside the database: someone who can write the
/// database can change entries but not recompute the chain over them.
@Suite("keyed audit chain")
struct KeyedAuditTests {
    static let key = AuditKey(hex: String(repeating: "ab", count: 32), keyedFrom: 1)

    @Test("fields are length-prefixed: moving text between fields, or absent for empty, changes the MAC")
    func unambiguous() {
        #expect(Self.key.mac(["ab", "c"]) != Self.key.mac(["a", "bc"]))
        #expect(Self.key.mac([nil, "x"]) != Self.key.mac(["", "x"]))
        #expect(Self.key.mac(["a\u{1F}b"]) != Self.key.mac(["a", "b"]))
        #expect(AuditKey(hex: String(repeating: "cd", count: 32), keyedFrom: 1).mac(["a"]) != Self.key.mac(["a"]))
    }

    @Test("deleting the last entries, changing an actor and recomputing the chain without the key is found", arguments: StoreBackend.allCases)
    func rewriteWithoutKey(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        try await t.store.useAuditKey(Self.key)
        for i in 0..<12 { try await t.store.recordEvent(actor: i == 3 ? "verifier-1" : "system", action: "e", detail: "event \(i)") }
        #expect(try await t.store.verifyAuditChain() == nil)
        #expect(try await t.store.auditHead().hash.hasPrefix(AuditChain.keyedPrefix))

        try t.dropAuditGuards()
        try t.raw("DELETE FROM audit WHERE sequence > 7")
        try t.raw("UPDATE audit SET actor = 'someone-else' WHERE sequence = 4")
        // What an attacker without the key can do: recompute every hash, in the unkeyed form or
        // keyed with a key of their own.
        for (form, forged) in [("unkeyed", nil as AuditKey?), ("keyed with another key", AuditKey(hex: String(repeating: "99", count: 32), keyedFrom: 1))] {
            var previous = AuditChain.genesis
            for e in try await t.store.events(action: "e") {
                let fields = AuditFields(reportID: nil, actor: e.actor, at: Timestamp.format(e.at), action: e.action, reason: e.reason)
                let hash = forged.map { AuditChain.hash(previous: previous, sequence: e.sequence, fields, key: $0) }
                    ?? AuditChain.unkeyed(previous: previous, sequence: e.sequence, fields)
                try t.raw("UPDATE audit SET hash = '\(hash)' WHERE sequence = \(e.sequence)")
                previous = hash
            }
            #expect(try await t.store.verifyAuditChain() == 1, "a chain recomputed \(form) passes")
        }
    }

    @Test("entries from before the key keep their form and still verify; from the key's first sequence on, only keyed ones pass",
          arguments: StoreBackend.allCases)
    func fromUnkeyedToKeyed(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        for i in 0..<3 { try await t.store.recordEvent(actor: "system", action: "e", detail: "before \(i)") }
        let key = AuditKey(hex: String(repeating: "ab", count: 32), keyedFrom: 4)
        try await t.store.useAuditKey(key)
        for i in 0..<3 { try await t.store.recordEvent(actor: "system", action: "e", detail: "after \(i)") }
        let entries = try await t.store.events(action: "e")
        #expect(entries.prefix(3).allSatisfy { !$0.hash.hasPrefix(AuditChain.keyedPrefix) })
        #expect(entries.suffix(3).allSatisfy { $0.hash.hasPrefix(AuditChain.keyedPrefix) })
        #expect(try await t.store.verifyAuditChain() == nil)
        // Reopened without the key (a tool that lacks the key file), keyed entries cannot be checked.
        #expect(try await t.reopen().verifyAuditChain() == 4)
    }
}
