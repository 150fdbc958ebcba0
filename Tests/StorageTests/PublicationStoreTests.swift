import Aggregation
import DomainKernel
import Foundation
import ReportVerification
import Storage
import Synchronization
import Testing

@Suite("publication store")
struct PublicationStoreTests {
    let planner = PublicationPlanner(policy: .default)

    private func plan(_ day: Day) -> @Sendable (PublicationInput) throws -> PublicationPlan {
        let planner = planner
        return { input in
            let (blocks, ledger) = planner.plan(ledger: input.ledger, verified: input.verified, day: day)
            return PublicationPlan(blocks: blocks, ledger: ledger)
        }
    }

    /// Area layers halls and zones and a points layer, so classes join only the area layers.
    private func layers(_ store: any GeoserveStore) async throws {
        _ = try await store.importLayer(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("H01", 0), area("H02", 2)]))
        _ = try await store.importLayer(LayerImport(layer: "zones", kind: .areas, source: nil, areas: [area("Z1", 0)]))
    }

    private func verified(_ store: any GeoserveStore, _ ids: [String], hall: String, kind: ReportKind = .covid) async throws {
        for id in ids {
            var r = record(id, kind: kind)
            r.areas = [AreaAssignment(layer: "halls", layerVersion: 1, areaID: hall), AreaAssignment(layer: "zones", layerVersion: 1, areaID: "Z1")]
            _ = try await store.submit(ReportSubmission(record: r, idempotencyKey: nil)) { _ in }
            _ = try await store.transition(reportID: id, .verify, reason: nil, actor: "v", expectedVersion: nil)
        }
    }

    @Test("a publication releases what the planner decides from the store's verified reports, keeps its ledger, and reads back", arguments: StoreBackend.allCases)
    func publishAndReadBack(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        try await verified(s, (0..<14).map { "big\($0)" }, hall: "H01")
        try await verified(s, (0..<3).map { "small\($0)" }, hall: "H02")
        try await verified(s, ["m0"], hall: "H02", kind: .misconduct)
        let today = Day.containing(Date(), in: t.timeZone)
        let before = try await s.dataVersion()
        let first = try await s.publish(day: today, at: Date(), plan: plan(today))
        #expect(first.id == 1 && first.day == today && first.blocks == 2)
        #expect(try await s.dataVersion() == before + 1)
        let blocks = try await s.publishedBlocks(after: 0)
        let h01 = AreaClass([AreaRef(layer: "halls", areaID: "H01"), AreaRef(layer: "zones", areaID: "Z1")])
        let h02 = AreaClass([AreaRef(layer: "halls", areaID: "H02"), AreaRef(layer: "zones", areaID: "Z1")])
        #expect(Set(blocks) == [PublishedBlock(publication: 1, key: LedgerKey(kind: .covid, areaClass: h01), day: today, value: 14),
                                PublishedBlock(publication: 1, key: LedgerKey(kind: .misconduct, areaClass: h02), day: today, value: 1)])
        // The second publication plans from the first's ledger: H02's three wait, and ten more
        // (with the kind's activity reaching the step) release thirteen.
        let idle = try await s.publish(day: today, at: Date(), plan: plan(today))
        #expect(idle.id == 2 && idle.blocks == 0)
        try await verified(s, (3..<13).map { "small\($0)" }, hall: "H02")
        try await verified(s, ["big14", "big15"], hall: "H01")
        let third = try await s.publish(day: today, at: Date(), plan: plan(today))
        #expect(third.blocks == 1)
        #expect(try await s.publishedBlocks(after: 2) == [PublishedBlock(publication: 3, key: LedgerKey(kind: .covid, areaClass: h02), day: today, value: 13)])
        #expect(try await s.publications().map(\.id) == [1, 2, 3])
        // A revocation waits in the ledger: nothing public moves.
        _ = try await s.transition(reportID: "big0", .revoke, reason: "duplicate", actor: "v", expectedVersion: nil)
        #expect(try await s.publish(day: today, at: Date(), plan: plan(today)).blocks == 0)
    }

    @Test("each publication reads back exactly the ledger the one before planned (only changed lines are written)", arguments: StoreBackend.allCases)
    func ledgerRoundTrip(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        let today = Day.containing(Date(), in: t.timeZone)
        let seen = Mutex<[PublicationLedger]>([]), planned = Mutex<[PublicationLedger]>([])
        let plan = plan(today)
        let recording: @Sendable (PublicationInput) throws -> PublicationPlan = { input in
            seen.withLock { $0.append(input.ledger) }
            let p = try plan(input)
            planned.withLock { $0.append(p.ledger) }
            return p
        }
        try await verified(s, (0..<14).map { "big\($0)" }, hall: "H01")
        try await verified(s, (0..<3).map { "small\($0)" }, hall: "H02")
        _ = try await s.publish(day: today, at: Date(), plan: recording)
        try await verified(s, ["big14"], hall: "H01")
        try await verified(s, ["m0"], hall: "H02", kind: .misconduct)
        _ = try await s.publish(day: today, at: Date(), plan: recording)
        _ = try await s.transition(reportID: "big0", .revoke, reason: "duplicate", actor: "v", expectedVersion: nil)
        _ = try await s.publish(day: today, at: Date(), plan: recording)
        _ = try await s.publish(day: today, at: Date(), plan: recording)
        let (read, wrote) = (seen.withLock { $0 }, planned.withLock { $0 })
        #expect(read.count == 4 && wrote.count == 4)
        for i in 1..<4 { #expect(read[i].entries == wrote[i - 1].entries, "publication \(i + 1)") }
        #expect(wrote[1].entries.count > wrote[0].entries.count, "a new line was added")
    }

    @Test("a publication dated before the latest is refused and writes nothing", arguments: StoreBackend.allCases)
    func dayOrder(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        try await verified(s, (0..<12).map { "r\($0)" }, hall: "H01")
        let day: Day = "2026-11-20"
        _ = try await s.publish(day: day, at: Date(), plan: plan(day))
        let version = try await s.dataVersion()
        await #expect(throws: PublicationError.dayBeforeLatest(latest: day)) {
            try await s.publish(day: day.adding(days: -1), at: Date(), plan: plan(day.adding(days: -1)))
        }
        #expect(try await s.publications().count == 1)
        #expect(try await s.dataVersion() == version)
    }

    @Test("two processes publishing at once make two publications, and the reports are released once", arguments: StoreBackend.allCases)
    func concurrent(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let other = try t.reopen()
        try await layers(t.store)
        try await verified(t.store, (0..<30).map { "r\($0)" }, hall: "H01")
        let today = Day.containing(Date(), in: t.timeZone)
        try await withThrowingTaskGroup(of: PublicationRecord.self) { group in
            for store in [t.store, other] { group.addTask { try await store.publish(day: today, at: Date(), plan: plan(today)) } }
            for try await _ in group {}
        }
        #expect(try await t.store.publications().map(\.id) == [1, 2])
        #expect(try await other.publishedBlocks(after: 0).map(\.value).reduce(0, +) == 30)
    }
}
