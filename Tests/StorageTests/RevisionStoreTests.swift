import DomainKernel
import Foundation
import ReportVerification
import Storage
import Testing

@Suite("revision store")
struct RevisionStoreTests {
    func edit(_ n: Int) -> ReportEdit {
        ReportEdit(occurredOn: Day(ordinal: Day("2026-11-10").ordinal + n), lon: -87.6 + Double(n) / 1000, lat: 41.79,
                   areas: [AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H\(n)")], payload: Data(#"{"notes":"edit \#(n)"}"#.utf8))
    }

    @Test("edits keep the last five revisions, newest first; the original is revision 1", arguments: StoreBackend.allCases)
    func keepFive(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        _ = try await s.submit(ReportSubmission(record: record("r"), idempotencyKey: nil))
        _ = try await s.edit(reportID: "r", edit(1), actor: "v", expectedVersion: 1, keep: 5, permission: .anyStatus)
        #expect(try await s.revisions(reportID: "r").map(\.revision) == [2, 1])
        for n in 2...6 { _ = try await s.edit(reportID: "r", edit(n), actor: "v", expectedVersion: nil, keep: 5, permission: .anyStatus) }
        let kept = try await s.revisions(reportID: "r")
        #expect(kept.map(\.revision) == [7, 6, 5, 4, 3])
        let current = try await s.report(id: "r")
        #expect(current?.payload == edit(6).payload && current?.areas == edit(6).areas && current?.occurredOn == "2026-11-16")
        #expect(current?.version == 7)
    }

    @Test("restoring a kept revision brings back its content and areas as a new revision", arguments: StoreBackend.allCases)
    func restore(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        _ = try await s.submit(ReportSubmission(record: record("r"), idempotencyKey: nil))
        _ = try await s.edit(reportID: "r", edit(1), actor: "v", expectedVersion: nil, keep: 5, permission: .anyStatus)
        let restored = try await s.restore(reportID: "r", revision: 1, actor: "v", expectedVersion: nil, keep: 5, permission: .anyStatus)
        #expect(restored.payload == record("r").payload && restored.areas == record("r").areas)
        #expect(try await s.report(id: "r")?.areas == record("r").areas)
        #expect(try await s.revisions(reportID: "r").map(\.revision) == [3, 2, 1])
        await #expect(throws: StorageError.notFound("revision 9 of report r")) {
            try await s.restore(reportID: "r", revision: 9, actor: "v", expectedVersion: nil, keep: 5, permission: .anyStatus)
        }
        #expect(try await s.history(reportID: "r").map(\.action) == ["submit", "edit", "restore:1"])
    }

    @Test("a stale edit, or a reporter's edit after pending, changes nothing", arguments: StoreBackend.allCases)
    func refused(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        _ = try await s.submit(ReportSubmission(record: record("r"), idempotencyKey: nil))
        await #expect(throws: ReportChangeError.staleVersion(current: 1, status: .pending)) {
            try await s.edit(reportID: "r", edit(1), actor: "x", expectedVersion: 3, keep: 5, permission: .anyStatus)
        }
        _ = try await s.edit(reportID: "r", edit(1), actor: "x", expectedVersion: nil, keep: 5, permission: .whilePending)
        _ = try await s.transition(reportID: "r", .verify, reason: nil, actor: "v", expectedVersion: nil)
        // A reporter's right ends when the report leaves pending, checked against the status in the
        // transaction, not the one the caller saw.
        await #expect(throws: ReportChangeError.notEditable(current: .verified)) {
            try await s.edit(reportID: "r", edit(2), actor: "x", expectedVersion: nil, keep: 5, permission: .whilePending)
        }
        await #expect(throws: ReportChangeError.notEditable(current: .verified)) {
            try await s.restore(reportID: "r", revision: 1, actor: "x", expectedVersion: nil, keep: 5, permission: .whilePending)
        }
        #expect(try await s.report(id: "r")?.version == 3)
        #expect(try await s.revisions(reportID: "r").map(\.revision) == [2, 1])
        #expect(try await s.report(id: "r")?.payload == edit(1).payload)
    }
}
