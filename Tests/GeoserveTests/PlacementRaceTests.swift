import ArgumentParser
import Foundation
import Storage
import Synchronization
import Testing
@testable import GeoserveApp
@testable import geoserve

/// Reports placed by serving processes while another process publishes new area versions: each
/// serving process places with its own snapshot of the layers, which lags a publication by up to
/// its polling interval, and a report committed in that lag kept the old version's areas for good
/// (18 and 7 reports in 2 of 6 cycles of `import-areas` under intake on PostgreSQL).
@Suite("placement across processes", .serialized, .timeLimit(.minutes(4)))
struct PlacementRaceTests {
    enum Backend: String, CaseIterable, Sendable { case sqlite, postgres }

    /// What the submitting tasks share: when to stop, and the reports acknowledged.
    final class Intake: Sendable {
        let stop = Atomic<Bool>(false)
        let acknowledged = Mutex<[String]>([])
    }

    @Test("two processes take reports while a third publishes four new versions of the halls: every stored report lies in the versions published now, none in an older one", arguments: Backend.allCases)
    func placementFollowsPublication(_ backend: Backend) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = backend == .postgres ? try postgresTestDatabase() : folder.appendingPathComponent("g.sqlite").path
        let demo = repositoryRoot.appendingPathComponent("data").path
        let first = try await LiveServer(database: db, demoData: demo)
        let second = try await LiveServer(database: db, demoData: "none")
        defer { for s in [first, second] { s.process.terminate() } }

        let intake = Intake()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (n, server) in [first, second, first, second].enumerated() {
                group.addTask {
                    var i = 0
                    while !intake.stop.load(ordering: .relaxed) {
                        i += 1
                        let answer = try await LiveServer.postReport(port: server.port, key: "placement-\(n)-\(i)-\(UUID().uuidString)")
                        if answer.status == 201, let id = answer.id { intake.acknowledged.withLock { $0.append(id) } }
                    }
                }
            }
            // The same halls again, four times: each import publishes a new version and re-assigns
            // the reports stored so far, while both processes go on placing with what they loaded.
            let halls = repositoryRoot.appendingPathComponent("data/halls.geojson").path
            for _ in 0..<4 {
                let before = intake.acknowledged.withLock { $0.count }
                _ = try await eventually(within: 30) { intake.acknowledged.withLock { $0.count } >= before + 20 }
                try await ImportAreasCommand.parse([halls, "--layer", "halls", "--database", db, "--keys", testKeysPath(for: db)]).run()
            }
            let last = intake.acknowledged.withLock { $0.count }
            _ = try await eventually(within: 30) { intake.acknowledged.withLock { $0.count } >= last + 40 }
            intake.stop.store(true, ordering: .relaxed)
            try await group.waitForAll()
        }

        let store = try await openKeyedStore(db)
        let published = Dictionary(uniqueKeysWithValues: try await store.layers().compactMap { l in l.publishedVersion.map { (l.name, $0) } })
        #expect(published["halls"] == 5, "the demo's version and four imports")
        let ids = intake.acknowledged.withLock { $0 }
        #expect(ids.count >= 120)
        var stale: [String] = []
        for id in ids {
            let report = try #require(try await store.report(id: id))
            #expect(report.areas.contains { $0.layer == "halls" }, "the demo's report location lies in a hall")
            for a in report.areas where published[a.layer] != a.layerVersion { stale.append("\(id): \(a.layer) v\(a.layerVersion)") }
        }
        #expect(stale.isEmpty, "\(stale.count) of \(ids.count) reports kept an older version: \(stale.prefix(5))")
        try await AggregatesCheckCommand.parse(["--database", db, "--keys", testKeysPath(for: db)]).run()
    }
}
