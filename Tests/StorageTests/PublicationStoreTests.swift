import Aggregation
import DomainKernel
import Foundation
import GeoCore
import ReportVerification
import Storage
import Synchronization
import Testing

@Suite("publication store")
struct PublicationStoreTests {
    let planner = PublicationPlanner(policy: .default)

    /// The service's planning, recording what the store gave it and what it planned.
    final class Recording: PublicationPlanning {
        let planning = ScheduledPlanning(planner: PublicationPlanner(policy: .default))
        let inputs = Mutex<[PublicationInput]>([])
        let plans = Mutex<[PublicationPlan]>([])
        var all: [PublicationInput] { inputs.withLock { $0 } }
        var planned: [PublicationPlan] { plans.withLock { $0 } }

        func plan(_ input: PublicationInput, day: Day) -> PublicationPlan {
            inputs.withLock { $0.append(input) }
            let plan = planning.plan(input, day: day)
            plans.withLock { $0.append(plan) }
            return plan
        }

        var k: Int { planning.k }
    }

    /// An area around every hall of `layers`.
    private func around(_ id: String) -> StoredArea {
        let ring = [(-1.0, -1.0), (5, -1), (5, 2), (-1, 2), (-1, -1)].map { try! Position(lon: $0.0, lat: $0.1) }
        return StoredArea(id: id, name: nil, properties: [:], geometry: .polygon(try! Polygon(rings: [ring])))
    }

    /// Area layers halls and zones and a points layer, so classes join only the area layers.
    private func layers(_ store: any GeoserveStore) async throws {
        _ = try await store.importLayer(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("H01", 0), area("H02", 2)]))
        _ = try await store.importLayer(LayerImport(layer: "zones", kind: .areas, source: nil, areas: [area("Z1", 0)]))
    }

    private func verified(_ store: any GeoserveStore, _ ids: [String], hall: String, kind: ReportKind = .covid,
                          also: [AreaAssignment] = []) async throws {
        for id in ids {
            var r = record(id, kind: kind)
            r.areas = [AreaAssignment(layer: "halls", layerVersion: 1, areaID: hall), AreaAssignment(layer: "zones", layerVersion: 1, areaID: "Z1")] + also
            _ = try await store.submit(ReportSubmission(record: r, idempotencyKey: nil))
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
        let first = try await s.publish(day: today, planning: Recording())
        #expect(first.id == 1 && first.day == today && first.blocks == 2)
        #expect(try await s.dataVersion() == before + 1)
        let blocks = try await s.publishedBlocks(after: 0).map(\.unnumbered)
        let h01 = AreaClass([AreaRef(layer: "halls", areaID: "H01"), AreaRef(layer: "zones", areaID: "Z1")])
        let h02 = AreaClass([AreaRef(layer: "halls", areaID: "H02"), AreaRef(layer: "zones", areaID: "Z1")])
        #expect(Set(blocks) == [PublishedBlock(publication: 1, key: LedgerKey(kind: .covid, areaClass: h01), day: today, value: 14),
                                PublishedBlock(publication: 1, key: LedgerKey(kind: .misconduct, areaClass: h02), day: today, value: 1)])
        // The second publication plans from the first's ledger: H02's three wait, and ten more
        // (with the kind's activity reaching the step) release thirteen.
        let idle = try await s.publish(day: today, planning: Recording())
        #expect(idle.id == 2 && idle.blocks == 0)
        try await verified(s, (3..<13).map { "small\($0)" }, hall: "H02")
        try await verified(s, ["big14", "big15"], hall: "H01")
        let third = try await s.publish(day: today, planning: Recording())
        #expect(third.blocks == 1)
        #expect(try await s.publishedBlocks(after: 2).map(\.unnumbered) == [PublishedBlock(publication: 3, key: LedgerKey(kind: .covid, areaClass: h02), day: today, value: 13)])
        #expect(try await s.publications().map(\.id) == [1, 2, 3])
        // A revocation waits in the ledger: nothing public moves.
        _ = try await s.transition(reportID: "big0", .revoke, reason: "duplicate", actor: "v", expectedVersion: nil)
        #expect(try await s.publish(day: today, planning: Recording()).blocks == 0)
    }

    @Test("each publication reads back exactly the ledger the one before planned (only changed lines are written)", arguments: StoreBackend.allCases)
    func ledgerRoundTrip(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        let today = Day.containing(Date(), in: t.timeZone)
        let seen = Recording()
        try await verified(s, (0..<14).map { "big\($0)" }, hall: "H01")
        try await verified(s, (0..<3).map { "small\($0)" }, hall: "H02")
        _ = try await s.publish(day: today, planning: seen)
        try await verified(s, ["big14"], hall: "H01")
        try await verified(s, ["m0"], hall: "H02", kind: .misconduct)
        _ = try await s.publish(day: today, planning: seen)
        _ = try await s.transition(reportID: "big0", .revoke, reason: "duplicate", actor: "v", expectedVersion: nil)
        _ = try await s.publish(day: today, planning: seen)
        _ = try await s.publish(day: today, planning: seen)
        let (read, wrote) = (seen.all.map(\.ledger), seen.planned.map(\.ledger))
        #expect(read.count == 4 && wrote.count == 4)
        for i in 1..<4 { #expect(read[i] == wrote[i - 1], "publication \(i + 1)") }
        #expect(wrote[1].lines.count > wrote[0].lines.count, "a new line was added")
        #expect(wrote[0].geography == ["halls": 1, "zones": 1])
    }

    @Test("a publication dated before the latest is refused and writes nothing", arguments: StoreBackend.allCases)
    func dayOrder(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        try await verified(s, (0..<12).map { "r\($0)" }, hall: "H01")
        let day: Day = "2026-11-20"
        _ = try await s.publish(day: day, planning: Recording())
        let version = try await s.dataVersion()
        await #expect(throws: PublicationError.dayBeforeLatest(latest: day)) {
            try await s.publish(day: day.adding(days: -1), planning: Recording())
        }
        #expect(try await s.publications().count == 1)
        #expect(try await s.dataVersion() == version)
    }

    @Test("a scheduled publication whose slot another process already took makes nothing and moves nothing", arguments: StoreBackend.allCases)
    func slotTaken(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        try await verified(s, (0..<12).map { "r\($0)" }, hall: "H01")
        let today = Day.containing(Date(), in: t.timeZone)
        // A schedule's slot is a whole minute; the stored time is kept to the millisecond.
        let slot = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60)
        let first = try await s.publish(PublicationRequest(day: today, at: slot, planning: Recording(), slot: slot))
        #expect(first?.id == 1)
        let version = try await s.dataVersion()
        let late = Recording()
        #expect(try await t.reopen().publish(PublicationRequest(day: today, at: Date(), planning: late, slot: slot)) == nil)
        #expect(late.all.isEmpty, "the planning did not run")
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
            for store in [t.store, other] { group.addTask { try await store.publish(day: today, planning: Recording()) } }
            for try await _ in group {}
        }
        #expect(try await t.store.publications().map(\.id) == [1, 2])
        #expect(try await other.publishedBlocks(after: 0).map(\.value).reduce(0, +) == 30)
    }

    @Test("a new layer and a renamed area give lines new classes from the maps alone: no block is released, the history counts for the new classes, and the reports stay with their lines", arguments: StoreBackend.allCases)
    func linesFollowTheAreas(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        try await verified(s, (0..<14).map { "big\($0)" }, hall: "H01")
        try await verified(s, (0..<5).map { "small\($0)" }, hall: "H02")
        let today = Day.containing(Date(), in: t.timeZone)
        let seen = Recording()
        _ = try await s.publish(day: today, planning: seen)
        // A campus layer around everything, then H02 renamed H02b.
        _ = try await s.importAndPublish(LayerImport(layer: "campus", kind: .areas, source: nil, areas: [around("C")]), resolve: { _ in "C" })
        _ = try await s.importAndPublish(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("H01", 0), area("H02b", 2)]),
                                         resolve: { $0.reportID.hasPrefix("small") ? "H02b" : "H01" })
        let second = try await s.publish(day: today, planning: seen)
        #expect(second.blocks == 0 && second.linesMoved == 2)
        let input = seen.all.last!
        #expect(input.geography == ["campus": 1, "halls": 2, "zones": 1])
        // The maps answer for the lines' origins: H01 is unchanged; H02's interior point lies in
        // H02b; the campus layer is asked about each line's hall (its first layer by name).
        let h01 = VersionedArea(layer: "halls", version: 1, areaID: "H01"), h02 = VersionedArea(layer: "halls", version: 1, areaID: "H02")
        #expect(input.answers == [AreaSuccession(from: h01, layer: "halls", version: 2): "H01", AreaSuccession(from: h02, layer: "halls", version: 2): "H02b",
                                  AreaSuccession(from: h01, layer: "campus", version: 1): "C", AreaSuccession(from: h02, layer: "campus", version: 1): "C"])
        #expect(second.k == 11, "a publication records the k it was made under")
        #expect(input.verified.allSatisfy { $0.line != nil }, "every verified report was accounted to a line by the first publication")
        let classes = Set(try await s.publishedBlocks(after: 0).map(\.key.areaClass))
        #expect(classes == [AreaClass([AreaRef(layer: "campus", areaID: "C"), AreaRef(layer: "halls", areaID: "H01"), AreaRef(layer: "zones", areaID: "Z1")])])
        // The renamed hall's five wait with their line. New reports there lie under the campus
        // area too, a class whose ground the new layer names: they open a line of its identity
        // (never the old line, whichever lines exist), which releases them once twelve gathered.
        let campus = [AreaAssignment(layer: "campus", layerVersion: 1, areaID: "C")]
        try await verified(s, (5..<17).map { "small\($0)" }, hall: "H02b", also: campus)
        try await verified(s, (14..<19).map { "big\($0)" }, hall: "H01", also: campus)
        _ = try await s.publish(day: today, planning: seen)
        let released = try await s.publishedBlocks(after: 2).filter { $0.key.areaClass.area(in: "halls") == "H02b" }.map(\.value)
        #expect(released == [12])
        let ledger = try #require(seen.planned.last?.ledger)
        let h02b = ledger.lines.values.filter { $0.key.areaClass.area(in: "halls") == "H02b" }.sorted { $0.id < $1.id }
        #expect(h02b.map(\.carry) == [5, 0] && h02b.map(\.accounted) == [5, 12])
        #expect(Set(h02b.compactMap(\.identity)).count == 2, "each line has an identity, the two differ")
        #expect(try await s.publications().map(\.linesMoved) == [0, 2, 0])
    }

    @Test("a hall renamed with its ground keeps taking its reports in its line: the identity is the ground's, not the id's", arguments: StoreBackend.allCases)
    func renameKeepsTheLine(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        try await verified(s, (0..<14).map { "big\($0)" }, hall: "H01")
        try await verified(s, (0..<5).map { "small\($0)" }, hall: "H02")
        let today = Day.containing(Date(), in: t.timeZone)
        let seen = Recording()
        _ = try await s.publish(day: today, planning: seen)
        _ = try await s.importAndPublish(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("H01", 0), area("H02b", 2)]),
                                         resolve: { $0.reportID.hasPrefix("small") ? "H02b" : "H01" })
        _ = try await s.publish(day: today, planning: seen)
        try await verified(s, (5..<12).map { "small\($0)" }, hall: "H02b")
        try await verified(s, (14..<19).map { "big\($0)" }, hall: "H01")
        _ = try await s.publish(day: today, planning: seen)
        // Seven more complete the renamed hall's old carry of five: one line, one block.
        let released = try await s.publishedBlocks(after: 2).filter { $0.key.areaClass.area(in: "halls") == "H02b" }.map(\.value)
        #expect(released == [12])
        #expect(seen.planned.last?.ledger.lines.count == 2)
    }

    @Test("reports a change of the areas put in another class stay with their line through the change and its rollback: nothing moves between lines", arguments: StoreBackend.allCases)
    func stripStaysWithItsLine(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        try await verified(s, (0..<30).map { "big\($0)" }, hall: "H01")
        let today = Day.containing(Date(), in: t.timeZone)
        let seen = Recording()
        _ = try await s.publish(day: today, planning: seen)
        let line = try #require(seen.planned[0].ledger.lines.keys.first)
        // A new version of the halls puts eighteen of H01's reports in H02, then a rollback
        // brings them back.
        let strip = Set((0..<18).map { "big\($0)" })
        _ = try await s.importAndPublish(LayerImport(layer: "halls", kind: .areas, source: nil, areas: [area("H01", 0), area("H02", 2)]),
                                         resolve: { strip.contains($0.reportID) ? "H02" : "H01" })
        let second = try await s.publish(day: today, planning: seen)
        #expect(second.blocks == 0 && second.linesMoved == 0)
        let h02 = AreaClass([AreaRef(layer: "halls", areaID: "H02"), AreaRef(layer: "zones", areaID: "Z1")])
        #expect(seen.all[1].verified.filter { $0.key.areaClass == h02 }.map { "\($0.line ?? 0)/\($0.count)" } == ["\(line)/18"])
        _ = try await s.publish(layer: "halls", version: 1, resolve: { _ in "H01" })
        let third = try await s.publish(day: today, planning: seen)
        #expect(third.blocks == 0 && third.linesMoved == 0)
        #expect(seen.all[2].verified.allSatisfy { $0.line == line }, "every report is still in the line it was first counted in")
        #expect(seen.planned[2].ledger.lines.count == 1 && seen.planned[2].ledger.lines[line]?.accounted == 30)
        #expect(try await s.publishedBlocks(after: 0).map(\.value) == [30])
    }

    @Test("an edited report is new to the ledger: it leaves its line and counts in its new class's line at the next publication", arguments: StoreBackend.allCases)
    func editLeavesTheLine(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await layers(s)
        try await verified(s, (0..<14).map { "big\($0)" }, hall: "H01")
        let today = Day.containing(Date(), in: t.timeZone)
        let seen = Recording()
        _ = try await s.publish(day: today, planning: seen)
        let edit = ReportEdit(occurredOn: "2026-11-20", lon: nil, lat: nil,
                              areas: [AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H02"), AreaAssignment(layer: "zones", layerVersion: 1, areaID: "Z1")],
                              payload: Data("{}".utf8))
        _ = try await s.edit(reportID: "big0", edit, actor: "v", expectedVersion: nil, keep: 5, permission: .anyStatus)
        _ = try await s.publish(day: today, planning: seen)
        let rows = seen.all.last!.verified
        let h02 = AreaClass([AreaRef(layer: "halls", areaID: "H02"), AreaRef(layer: "zones", areaID: "Z1")])
        #expect(rows.filter { $0.key.areaClass == h02 }.map(\.line) == [nil])
        #expect(rows.filter { $0.key.areaClass != h02 }.map(\.count) == [13])
        let ledger = seen.all.last!.ledger
        // The third publication sees the moved report accounted to H02's line: H01 gave one back.
        _ = try await s.publish(day: today, planning: seen)
        let third = seen.all.last!.ledger
        #expect(third.lines.values.map { ($0.key.areaClass, $0.accounted, $0.carry) }.sorted { $0.0 < $1.0 }.map { "\($0.1)/\($0.2)" } == ["13/-1", "1/1"])
        #expect(ledger.lines.count == 1)
    }
}

extension PublishedBlock {
    /// The block without its line number, which the store assigns.
    var unnumbered: PublishedBlock { PublishedBlock(publication: publication, key: key, day: day, value: value) }
}

extension PublicationStore {
    /// A publication on `day` now, which the tests expect to be made.
    func publish(day: Day, planning: any PublicationPlanning) async throws -> PublicationRecord {
        try #require(try await publish(PublicationRequest(day: day, at: Date(), planning: planning)))
    }
}
