import Aggregation
import DomainKernel
import Foundation
import Logging
import Storage
import Testing
@testable import GeoserveApp

@Suite("demo reports")
struct DemoReportsTests {
    /// A store with the demo campus loaded, and what the seeder needs.
    static func seeder(days: Int = 28, seed: UInt64 = 1) async throws -> (DemoSeeder, any GeoserveStore, URL) {
        let folder = try temporaryFolder()
        let store = try await openKeyedStore(try testDatabase(in: folder))
        try await DemoData.importIfEmpty(into: store, from: repositoryRoot.appendingPathComponent("data").path, logger: Logger(label: "test"))
        let catalog = LayerCatalog()
        try await catalog.refresh(from: store)
        let publisher = Publisher(store: store, policy: .default, timeZone: TimeZone(identifier: "UTC")!)
        return (DemoSeeder(store: store, catalog: catalog, publisher: publisher, layer: "halls", demo: DemoReports(days: days, seed: seed)), store, folder)
    }

    @Test("an empty store gets verified reports published day by day, a few pending ones, all marked as demo, audited and counted")
    func seeds() async throws {
        let (seeder, store, folder) = try await Self.seeder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await seeder.seed()
        #expect(outcome.reports > 100)
        #expect(outcome.publications == 28)
        let days = try await store.publications(after: 0).map(\.day)
        #expect(days == days.sorted() && Set(days).count == 28)
        let verified = try await store.queue(QueueFilter(statuses: [.verified]), limit: 10_000, cursor: nil).reports
        let pending = try await store.queue(QueueFilter(statuses: [.pending]), limit: 10_000, cursor: nil).reports
        #expect(verified.count + pending.count == outcome.reports && pending.count == 5)
        #expect(verified.allSatisfy { String(decoding: $0.payload, as: UTF8.self) == #"{"demo":true}"# && $0.verifiedOn != nil })
        // The demo says it is one, and shows the resources list.
        #expect(try await store.alerts().map(\.content.title) == ["Demo data"])
        #expect(try await store.resources().count == 3)
        #expect(try await store.verifyAuditChain() == nil)
        #expect(try await store.checkCounters().isEmpty)
    }

    @Test("a store that holds a report is refused, and nothing is added")
    func refusesReports() async throws {
        let (seeder, store, folder) = try await Self.seeder(days: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await seeder.seed()
        let before = try await store.queue(QueueFilter(statuses: ReportStatus.allCases), limit: 10_000, cursor: nil).reports.count
        await #expect(throws: DemoSeeder.Refused.self) { _ = try await seeder.seed() }
        #expect(try await store.queue(QueueFilter(statuses: ReportStatus.allCases), limit: 10_000, cursor: nil).reports.count == before)
    }

    @Test("the same seed gives the same reports; another seed others")
    func deterministic() {
        let today = Day(ordinal: 20_000)
        let areas = (1...42).map { String(format: "H%02d", $0) }
        let days = (1...28).map { today.adding(days: -$0) }
        let a = days.flatMap { DemoReports(days: 28, seed: 1).verified(on: $0, today: today, areas: areas).map { "\($0.area)\($0.occurredOn)" } }
        let b = days.flatMap { DemoReports(days: 28, seed: 1).verified(on: $0, today: today, areas: areas).map { "\($0.area)\($0.occurredOn)" } }
        let c = days.flatMap { DemoReports(days: 28, seed: 2).verified(on: $0, today: today, areas: areas).map { "\($0.area)\($0.occurredOn)" } }
        #expect(a == b && a != c && a.count > 100)
        #expect(DemoReports(days: 28, seed: 1).verified(on: today, today: today, areas: areas).isEmpty)
    }
}
