import Foundation
import Storage
import Testing

@Suite("notice store")
struct NoticeStoreTests {
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    func alert(_ title: String, startsAt: Date, endsAt: Date? = nil, severity: AlertSeverity = .info) -> AlertContent {
        AlertContent(title: title, message: "Wear a mask in \(title).", severity: severity, startsAt: startsAt, endsAt: endsAt)
    }

    @Test("alerts are created, replaced, expired and deleted, each change audited in its transaction", arguments: StoreBackend.allCases)
    func alerts(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let first = try await s.createAlert(alert("Dorms", startsAt: start), actor: "admin-1", at: start)
        let second = try await s.createAlert(alert("Library", startsAt: start.addingTimeInterval(60), severity: .critical), actor: "admin-1", at: start)
        #expect(try await s.alerts().map(\.id) == [second.id, first.id], "newest start first")
        #expect(first.content == alert("Dorms", startsAt: start) && first.createdAt == start)

        let edited = alert("Dorms and dining", startsAt: start, endsAt: start.addingTimeInterval(3600), severity: .warning)
        let changed = try await s.updateAlert(id: first.id, edited, action: "alert-update", actor: "admin-2", at: start.addingTimeInterval(5))
        #expect(changed.content == edited && changed.createdAt == start && changed.updatedAt == start.addingTimeInterval(5))
        #expect(changed.state(at: start.addingTimeInterval(10)) == .current && changed.state(at: start.addingTimeInterval(3600)) == .expired)
        #expect(changed.state(at: start.addingTimeInterval(-1)) == .scheduled)

        let expired = try await s.updateAlert(id: second.id, second.content.expired(at: start.addingTimeInterval(120)), action: "alert-expire",
                                              actor: "admin-1", at: start.addingTimeInterval(120))
        #expect(expired.content.endsAt == start.addingTimeInterval(120) && expired.state(at: start.addingTimeInterval(120)) == .expired)

        try await s.deleteAlert(id: first.id, actor: "admin-2", at: start.addingTimeInterval(200))
        #expect(try await s.alerts().map(\.id) == [second.id])
        await #expect(throws: StorageError.self) { try await s.deleteAlert(id: first.id, actor: "admin-2", at: start) }
        await #expect(throws: StorageError.self) {
            try await s.updateAlert(id: "missing", edited, action: "alert-update", actor: "admin-2", at: start)
        }

        let audited = try await ["alert-create", "alert-update", "alert-expire", "alert-delete"].asyncMap { try await s.events(action: $0) }
        #expect(audited.map(\.count) == [2, 1, 1, 1], "one entry per change; refused changes leave none")
        #expect(audited[1].first?.actor == "admin-2" && audited[1].first?.reason == "alert \(first.id)")
        #expect(try await s.verifyAuditChain() == nil)
    }

    @Test("resources are listed by category and title, replaced and deleted with an audit entry each", arguments: StoreBackend.allCases)
    func resources(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let testing = try await s.createResource(ResourceContent(title: "Testing sites", category: "Testing", link: "https://example.edu/test"),
                                                 actor: "admin-1", at: start)
        let cdc = try await s.createResource(ResourceContent(title: "CDC guidance", category: "Health", link: "https://www.cdc.gov/"),
                                             actor: "admin-1", at: start)
        let who = try await s.createResource(ResourceContent(title: "WHO", category: "Health", link: "https://www.who.int/"), actor: "admin-1", at: start)
        #expect(try await s.resources().map(\.id) == [cdc.id, who.id, testing.id])
        let moved = try await s.updateResource(id: testing.id, ResourceContent(title: "Testing", category: "Health", link: "http://example.edu/t"),
                                               actor: "admin-2", at: start.addingTimeInterval(9))
        #expect(moved.content.link == "http://example.edu/t" && moved.updatedAt == start.addingTimeInterval(9))
        #expect(try await s.resources().map(\.id) == [cdc.id, moved.id, who.id])
        try await s.deleteResource(id: cdc.id, actor: "admin-2", at: start)
        await #expect(throws: StorageError.self) { try await s.deleteResource(id: cdc.id, actor: "admin-2", at: start) }
        #expect(try await s.resources().count == 2)
        let counts = try await ["resource-create", "resource-update", "resource-delete"].asyncMap { try await s.events(action: $0).count }
        #expect(counts == [3, 1, 1])
        #expect(try await s.verifyAuditChain() == nil)
    }

    @Test("a notice written through one store is read through another on the same database", arguments: StoreBackend.allCases)
    func shared(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let other = try t.reopen()
        let made = try await t.store.createAlert(alert("Gym", startsAt: start), actor: "admin-1", at: start)
        #expect(try await other.alerts() == [made])
    }
}

extension Array {
    /// The results of an async transform, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for e in self { out.append(try await transform(e)) }
        return out
    }
}
