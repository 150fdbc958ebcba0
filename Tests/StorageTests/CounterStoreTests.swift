import Aggregation
import DomainKernel
import Foundation
import ReportVerification
import Storage
import Testing
@testable import StoragePostgres

/// A small deterministic generator (SplitMix64), so a failing sequence can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("stored counters")
struct CounterStoreTests {
    @Test("after every random intake, transition and edit the stored counters equal a recompute from the reports", arguments: StoreBackend.allCases, [1, 2, 3])
    func randomHistories(backend: StoreBackend, seed: UInt64) async throws {
        let t = try await backend.make(timeZone: TimeZone(identifier: "America/Chicago")!)
        defer { t.remove() }
        let s = t.store
        var rng = SeededGenerator(state: seed)
        var ids: [String] = []
        var applied = 0
        let halls = ["H01", "H02", "H03"], zones = ["Z1", "Z2"]
        let groups = ["student", "faculty", "staff", ""].map(BreakdownGroup.init)
        for step in 0..<120 {
            let action = Int.random(in: 0..<10, using: &rng)
            if ids.isEmpty || action < 4 {
                let id = "r\(step)"
                let day = Day(year: 2026, month: 10, day: 1).adding(days: Int.random(in: 0..<60, using: &rng))
                let at = Date(timeIntervalSince1970: 1_790_000_000 + Double(Int.random(in: 0..<5_000_000, using: &rng)))
                let r = ReportRecord(id: id, kind: Bool.random(using: &rng) ? .covid : .misconduct, status: .pending, version: 1,
                                     reporterID: nil, submittedAt: at, updatedAt: at, occurredOn: day, payload: Data("{}".utf8),
                                     lon: nil, lat: nil,
                                     areas: [AreaAssignment(layer: "halls", layerVersion: 1, areaID: halls.randomElement(using: &rng)!),
                                             AreaAssignment(layer: "zones", layerVersion: 1, areaID: zones.randomElement(using: &rng)!)],
                                     group: groups.randomElement(using: &rng)!)
                _ = try await s.submit(ReportSubmission(record: r, idempotencyKey: nil))
                ids.append(id)
            } else if action < 8 {
                let id = ids.randomElement(using: &rng)!
                let transition = ReportTransition.allCases.randomElement(using: &rng)!
                // Refused transitions (409s) must leave the counters alone, so they are part of the test.
                if (try? await s.transition(reportID: id, transition, reason: "because", actor: "v", expectedVersion: nil)) != nil { applied += 1 }
            } else {
                let id = ids.randomElement(using: &rng)!
                let day = Day(year: 2026, month: 9, day: 1).adding(days: Int.random(in: 0..<90, using: &rng))
                let edit = ReportEdit(occurredOn: day, lon: nil, lat: nil,
                                      areas: [AreaAssignment(layer: "halls", layerVersion: 1, areaID: halls.randomElement(using: &rng)!)],
                                      payload: Data("{}".utf8))
                _ = try await s.edit(reportID: id, edit, actor: "v", expectedVersion: nil, keep: 5, permission: .anyStatus)
            }
            let differences = try await s.checkCounters()
            #expect(differences.isEmpty, "step \(step): \(differences.prefix(3).map { "\($0.key) stored \($0.stored) recomputed \($0.recomputed)" })")
            if !differences.isEmpty { return }
        }
        // Transitions that always failed would leave nothing for the check to see.
        #expect(applied > 0)
    }

    @Test("a tampered counter is found by the check and repaired by a rebuild, which bumps the data version", arguments: StoreBackend.allCases)
    func tamperAndRebuild(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        _ = try await s.submit(ReportSubmission(record: record("a"), idempotencyKey: nil))
        _ = try await s.transition(reportID: "a", .verify, reason: nil, actor: "v", expectedVersion: nil)
        #expect(try await s.checkCounters().isEmpty)
        let verified = try await s.counterSnapshot(layer: "halls", basis: .occurred).cells.filter { $0.0.status == .verified }
        #expect(verified.map(\.1) == [1])
        try t.raw("UPDATE counters SET n = n + 4 WHERE status = 'verified' AND layer = 'halls' AND basis = 'occurred'")
        let differences = try await s.checkCounters()
        #expect(differences.count == 1)
        #expect(differences.first?.stored == 5 && differences.first?.recomputed == 1)
        let before = try await s.dataVersion()
        #expect(try await s.rebuildCounters() == 1)
        #expect(try await s.checkCounters().isEmpty)
        #expect(try await s.dataVersion() == before + 1)
    }

    @Test("area ids and groups holding tabs, line breaks, backslashes, quotes or the text \\N are recounted and rebuilt exactly",
          arguments: StoreBackend.allCases)
    func awkwardText(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let odd = ["a\tb\\c\nd\"e,f\r", "\\N", "ü\\\\t"]
        for (i, id) in odd.enumerated() {
            var r = record("r\(i)")
            r.areas = [AreaAssignment(layer: "halls", layerVersion: 1, areaID: id)]
            r.group = BreakdownGroup(id + "|group")
            _ = try await s.submit(ReportSubmission(record: r, idempotencyKey: nil))
            _ = try await s.transition(reportID: r.id, .verify, reason: nil, actor: "v", expectedVersion: nil)
        }
        #expect(try await s.checkCounters().isEmpty)
        // Both ways a rebuild writes: upserting the wrong cells, and on PostgreSQL, when most
        // cells are wrong, replacing them all through COPY.
        for replaceAll in [false, true] {
            try t.raw("DELETE FROM counters")
            // Three reports, each counted by occurred, submitted and verified day.
            #expect(try await s.checkCounters().count == 9)
            let rebuilder = replaceAll && backend == .postgres ? PostgresStore(location: t.location, timeZone: t.timeZone, rebuildUpsertLimit: 0) : s
            #expect(try await rebuilder.rebuildCounters() == 9)
            #expect(try await s.checkCounters().isEmpty)
            let cells = try await s.counterSnapshot(layer: "halls", basis: .verified).cells
            #expect(Set(cells.map(\.0.areaID)) == Set(odd))
            #expect(Set(cells.map(\.0.group)) == Set(odd.map { BreakdownGroup($0 + "|group") }))
        }
    }

    @Test("a rebuild that replaces the counters' table keeps its indexes and names, and a reader that began before the swap sees the new rows, never an empty table")
    func replacedTableUnderReaders() async throws {
        let t = try await StoreBackend.postgres.make()
        defer { t.remove() }
        let s = t.store
        for i in 0..<4 {
            _ = try await s.submit(ReportSubmission(record: record("r\(i)"), idempotencyKey: nil))
            _ = try await s.transition(reportID: "r\(i)", .verify, reason: nil, actor: "v", expectedVersion: nil)
        }
        let before = try await s.counterSnapshot(layer: "halls", basis: .verified)
        #expect(before.cells.map(\.1).reduce(0, +) == 4)
        try t.raw("UPDATE counters SET n = n + 7")
        let rebuilder = PostgresStore(location: t.location, rebuildUpsertLimit: 0)

        // A reader holds the table: the rebuild writes its new table, then waits to swap.
        let holder = try PostgresConnection(location: t.location, settings: [])
        let watcher = try PostgresConnection(location: t.location, settings: [])
        func waiting(_ mode: String) throws -> Int {
            // Waits on this test's counters table only: other tests share the server.
            Int(try watcher.query("""
                SELECT count(*) FROM pg_locks WHERE NOT granted AND mode = $1 AND relation = 'counters'::regclass
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """, [.text(mode)]).int(0, 0))
        }
        func until(_ condition: () throws -> Bool) async throws {
            for _ in 0..<500 where !(try condition()) { try await Task.sleep(for: .milliseconds(20)) }
            try #require(try condition())
        }
        try holder.execute("BEGIN; LOCK TABLE counters IN ACCESS SHARE MODE")
        let rebuild = Task { try await rebuilder.rebuildCounters() }
        try await until { try waiting("AccessExclusiveLock") == 1 }
        // A snapshot read starts now, behind the swap, and must see the swapped-in rows.
        let read = Task { try await s.counterSnapshot(layer: "halls", basis: .verified) }
        try await until { try waiting("AccessShareLock") == 1 }
        try holder.execute("COMMIT")
        #expect(try await rebuild.value > 0)
        let during = try await read.value
        #expect(during.cells.map(\.1).reduce(0, +) == 4, "the reader saw \(during.cells.count) cells")
        #expect(Set(during.cells.map(\.0.areaID)) == Set(before.cells.map(\.0.areaID)))

        #expect(try await s.checkCounters().isEmpty)
        let indexes = try watcher.query("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'counters' ORDER BY 1")
        #expect((0..<indexes.count).map { indexes.string($0, 0) } == ["counters_changed", "counters_pkey"])
        // The table takes writes as before: intake upserts through its primary key.
        _ = try await s.submit(ReportSubmission(record: record("after"), idempotencyKey: nil))
        #expect(try await s.checkCounters().isEmpty)
    }
}
