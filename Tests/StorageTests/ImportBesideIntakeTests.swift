import Dispatch
import DomainKernel
import Foundation
import Storage
import Synchronization
import Testing
@testable import StoragePostgres

/// A large import and intake at the same time: the rows of a later import go in before the
/// writer's order, so submissions are stored while they stream in; the import checks at its
/// commit that no area version was published meanwhile, and an installation's first import says
/// that it holds the tables.
@Suite("imports beside intake")
struct ImportBesideIntakeTests {
    /// Batches that hand over their first part and then wait at a gate the test opens, so that
    /// the test acts while the import is in the middle of its rows.
    final class GatedBatches: ReportBatches {
        let placedOn: [String: Int]?
        private let parts: ReportArrayBatches
        private let calls = Mutex(0)
        private let handed = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)
        /// Whether the gate was opened by the test rather than by its fallback (two minutes, so
        /// that a broken store fails the test instead of hanging it).
        let openedByTest = Mutex(false)

        init(_ records: [ReportRecord], placedOn: [String: Int]?) {
            parts = ReportArrayBatches(records, size: max(1, records.count / 4))
            self.placedOn = placedOn
        }

        func next() throws -> [ReportRecord]? {
            if calls.withLock({ c in defer { c += 1 }; return c }) == 1 {
                handed.signal()
                let opened = gate.wait(timeout: .now() + 120) == .success
                openedByTest.withLock { $0 = opened }
            }
            return parts.next()
        }

        /// Returns once the import has taken the first part and waits for the second.
        func waitUntilInside() async {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { [handed] in
                    handed.wait()
                    c.resume()
                }
            }
        }

        func open() { gate.signal() }
    }

    static func records(_ prefix: String, _ count: Int, layers: [String] = ["halls", "zones"]) -> [ReportRecord] {
        let at = Date(timeIntervalSince1970: 1_795_000_000)
        return (0..<count).map { n in
            ReportRecord(id: "\(prefix)\(n)", kind: n % 3 == 0 ? .misconduct : .covid, status: n % 2 == 0 ? .verified : .pending, version: 1,
                         reporterID: nil, submittedAt: at.addingTimeInterval(Double(n)), updatedAt: at,
                         occurredOn: Day(year: 2026, month: 11, day: 1 + n % 20), payload: Data("{}".utf8), lon: nil, lat: nil,
                         areas: layers.map { AreaAssignment(layer: $0, layerVersion: 1, areaID: "\($0)-\(n % 4)") },
                         verifiedOn: n % 2 == 0 ? Day(year: 2026, month: 11, day: 22) : nil)
        }
    }

    static func count(_ t: TestStore) throws -> Int {
        Int(try PostgresConnection(location: t.location, settings: []).query("SELECT count(*) FROM reports").int(0, 0))
    }

    @Test("PostgreSQL: a submission made while a later import's rows stream in is stored before the import commits, and both are counted")
    func intakeDuringImport() async throws {
        let t = try await StoreBackend.postgres.make()
        defer { t.remove() }
        #expect(try await t.store.importReports(ReportArrayBatches(Self.records("seed", 20)), actor: "test") { "rows=\($0)" } == 20)

        let batches = GatedBatches(Self.records("late", 4000), placedOn: [:])
        let importing = Task { try await t.store.importReports(batches, actor: "test") { "rows=\($0)" } }
        await batches.waitUntilInside()
        // A later import holds no table exclusively: readiness stays ready.
        #expect(try await t.store.exclusiveHolds() == [])
        let outcome = try await t.store.submit(ReportSubmission(record: record("live"), idempotencyKey: nil))
        #expect(outcome.record.id == "live")
        // Stored and visible while the import still waits at its gate: intake did not wait for it.
        #expect(try await t.store.report(id: "live") != nil)
        #expect(try Self.count(t) == 21)
        batches.open()
        #expect(try await importing.value == 4000)
        #expect(batches.openedByTest.withLock { $0 }, "the import passed its gate only by the fallback")
        #expect(try Self.count(t) == 4021)
        #expect(try await t.store.checkCounters().isEmpty)
        #expect(try await t.store.verifyAuditChain() == nil)
    }

    @Test("PostgreSQL: an installation's first import holds the tables exclusively while it runs, and says so; after it, nothing is held")
    func firstImportAnnounced() async throws {
        let t = try await StoreBackend.postgres.make()
        defer { t.remove() }
        #expect(try await t.store.exclusiveHolds() == [])
        let batches = GatedBatches(Self.records("first", 400), placedOn: [:])
        let importing = Task { try await t.store.importReports(batches, actor: "test") { "rows=\($0)" } }
        await batches.waitUntilInside()
        #expect(try await t.store.exclusiveHolds() == ["report_areas", "reports"])
        batches.open()
        #expect(try await importing.value == 400)
        #expect(try await t.store.exclusiveHolds() == [])
        #expect(try await t.store.checkCounters().isEmpty)
    }

    @Test("PostgreSQL: areas published while a later import's rows stream in refuse the import whole, naming both versions")
    func publishedDuringImport() async throws {
        let t = try await StoreBackend.postgres.make()
        defer { t.remove() }
        try await t.store.importLayer(LayerImport(layer: "zones", kind: .areas, source: nil, areas: [area("zones-0", 0)]))
        #expect(try await t.store.importReports(ReportArrayBatches(Self.records("seed", 20, layers: ["zones"])), actor: "test") { "rows=\($0)" } == 20)

        let batches = GatedBatches(Self.records("late", 2000, layers: ["zones"]), placedOn: ["zones": 1])
        let importing = Task { try await t.store.importReports(batches, actor: "test") { "rows=\($0)" } }
        await batches.waitUntilInside()
        // The new version is published while the import is inside its rows: the re-assignment
        // cannot see them, so they would keep version 1.
        let staged = try await t.store.stage(LayerImport(layer: "zones", kind: .areas, source: nil, areas: [area("zones-0", 0), area("zones-1", 1)]))
        try await t.store.publish(layer: "zones", version: staged.version)
        batches.open()
        let refused = await #expect(throws: StalePlacement.self) { _ = try await importing.value }
        #expect(refused?.placedOn == ["zones": 1] && refused?.published == ["zones": 2])
        #expect(try Self.count(t) == 20)
        #expect(try await t.store.events(action: "import-reports").count == 1)  // the seed's alone
        #expect(try await t.store.checkCounters().isEmpty)
    }

    @Test("an import placed in versions that are no longer published stores nothing", arguments: StoreBackend.allCases)
    func placedInOldVersions(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        try await t.store.importLayer(LayerImport(layer: "zones", kind: .areas, source: nil, areas: [area("zones-0", 0)]))
        #expect(try await t.store.importReports(ReportArrayBatches(Self.records("seed", 10, layers: ["zones"])), actor: "test") { "rows=\($0)" } == 10)
        let staged = try await t.store.stage(LayerImport(layer: "zones", kind: .areas, source: nil, areas: [area("zones-0", 0), area("zones-1", 1)]))
        try await t.store.publish(layer: "zones", version: staged.version)
        let version = try await t.store.dataVersion()

        final class Placed: ReportBatches {
            let placedOn: [String: Int]?
            let parts: ReportArrayBatches
            init(_ records: [ReportRecord], placedOn: [String: Int]) { parts = ReportArrayBatches(records); self.placedOn = placedOn }
            func next() -> [ReportRecord]? { parts.next() }
        }
        let refused = await #expect(throws: StalePlacement.self) {
            _ = try await t.store.importReports(Placed(Self.records("old", 50, layers: ["zones"]), placedOn: ["zones": 1]), actor: "test") { "rows=\($0)" }
        }
        #expect(refused?.placedOn == ["zones": 1] && refused?.published == ["zones": 2])
        #expect(try await t.store.report(id: "old0") == nil)
        #expect(try await t.store.dataVersion() == version)
        #expect(try await t.store.checkCounters().isEmpty)
        // Placed in what is published now, the same rows go in.
        #expect(try await t.store.importReports(Placed(Self.records("new", 50, layers: ["zones"]), placedOn: ["zones": 2]), actor: "test") { "rows=\($0)" } == 50)
    }
}
