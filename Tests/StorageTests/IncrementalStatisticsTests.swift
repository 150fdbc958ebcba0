import Aggregation
import DomainKernel
import Foundation
import ReportVerification
import Storage
import Testing

/// Live statistics brought up to date from `counterChanges` must equal statistics computed whole
/// from a fresh snapshot, whatever happened in between: the check `aggregates check` gives for
/// counters, for the released numbers.
@Suite("incremental statistics")
struct IncrementalStatisticsTests {
    /// One live view as the service keeps it: the statistics and the data version they hold.
    struct View {
        let request: StatisticsRequest
        var statistics: LiveStatistics?
        var version: Int64 = 0
    }

    static let control = DisclosureControl()
    static let denominators: [String: Double] = ["H01": 120, "H02": 45, "H04": 300]

    @Test("after random intake, verifications, revocations, edits, layer re-imports and counter rebuilds the updated release equals a full one",
          arguments: StoreBackend.allCases, [1, 2, 3])
    func randomHistories(backend: StoreBackend, seed: UInt64) async throws {
        let t = try await backend.make(timeZone: TimeZone(identifier: "America/Chicago")!)
        defer { t.remove() }
        let s = t.store
        var rng = SeededGenerator(state: seed &* 7919)
        var ids: [String] = []
        var areaIDs = ["H01", "H02", "H03"]
        var layerVersion = 0
        let groups = ["student", "faculty", "staff", ""].map(BreakdownGroup.init)
        let end = Day(year: 2026, month: 11, day: 30)
        var views = [
            View(request: StatisticsRequest(layer: "halls", kind: .covid, basis: .occurred, end: end, groups: Report.breakdownGroups(of: .covid))),
            View(request: StatisticsRequest(layer: "halls", kind: nil, basis: .verified, end: end, groups: [])),
        ]
        var updates = 0, fallbacks = 0
        for step in 0..<90 {
            let action = Int.random(in: 0..<20, using: &rng)
            if ids.isEmpty || action < 7 {
                let id = "r\(step)"
                let day = end.adding(days: -Int.random(in: 0..<70, using: &rng))
                let at = Date(timeIntervalSince1970: 1_790_000_000 + Double(Int.random(in: 0..<5_000_000, using: &rng)))
                let r = ReportRecord(id: id, kind: Bool.random(using: &rng) ? .covid : .misconduct, status: .pending, version: 1,
                                     reporterID: nil, submittedAt: at, updatedAt: at, occurredOn: day, payload: Data("{}".utf8),
                                     lon: nil, lat: nil,
                                     areas: [AreaAssignment(layer: "halls", layerVersion: layerVersion, areaID: areaIDs.randomElement(using: &rng)!)],
                                     group: groups.randomElement(using: &rng)!)
                _ = try await s.submit(ReportSubmission(record: r, idempotencyKey: nil))
                ids.append(id)
            } else if action < 15 {
                let transition: ReportTransition = [.verify, .verify, .revoke, .reject, .reopen].randomElement(using: &rng)!
                _ = try? await s.transition(reportID: ids.randomElement(using: &rng)!, transition, reason: "because", actor: "v", expectedVersion: nil)
            } else if action < 17 {
                let edit = ReportEdit(occurredOn: end.adding(days: -Int.random(in: 0..<70, using: &rng)), lon: nil, lat: nil,
                                      areas: [AreaAssignment(layer: "halls", layerVersion: layerVersion, areaID: areaIDs.randomElement(using: &rng)!)],
                                      payload: Data("{}".utf8))
                _ = try await s.edit(reportID: ids.randomElement(using: &rng)!, edit, actor: "v", expectedVersion: nil, keep: 5, permission: .anyStatus)
            } else if action < 19 {
                // A new version of the layer, every report moved to one of its areas.
                let next = ["H01", "H02", "H03", "H04", "H05"].filter { _ in Bool.random(using: &rng) } + ["H06"]
                let staged = try await s.stage(LayerImport(layer: "halls", kind: .areas, source: nil,
                                                           areas: next.enumerated().map { area($1, Double($0)) }))
                let moved = try await s.publish(layer: "halls", version: staged.version) { position in
                    next[Int(position.reportID.dropFirst())! % next.count]
                }
                #expect(moved >= 0)
                (areaIDs, layerVersion) = (next, staged.version)
                // A new layer version is a new view: the service starts it whole.
                for i in views.indices { views[i].statistics = nil }
            } else {
                try t.raw("UPDATE counters SET n = n + 3 WHERE layer = 'halls' AND status = 'verified'")
                _ = try await s.rebuildCounters()
            }

            for i in views.indices {
                let request = views[i].request
                let whole = try await Self.whole(s, request, areaIDs: areaIDs)
                if let held = views[i].statistics {
                    // A small limit now and then: the caller then reads the layer whole, as the service does.
                    let limit = Int.random(in: 0..<4, using: &rng) == 0 ? 1 : 1000
                    if let changes = try await s.counterChanges(layer: "halls", basis: request.basis, since: views[i].version, limit: limit) {
                        views[i].statistics = held.updating(areaIDs: changes.areaIDs, cells: changes.cells)
                        views[i].version = changes.dataVersion
                        updates += 1
                    } else {
                        (views[i].statistics, views[i].version) = (whole.statistics, whole.version)
                        fallbacks += 1
                    }
                } else {
                    (views[i].statistics, views[i].version) = (whole.statistics, whole.version)
                }
                let updated = try #require(views[i].statistics).released, full = try #require(whole.statistics).released
                #expect(updated.total == full.total, "step \(step), view \(i): total")
                #expect(updated.areas == full.areas, "step \(step), view \(i): \(Set(updated.areas.keys).symmetricDifference(full.areas.keys))")
                if updated.areas != full.areas || updated.total != full.total { return }
            }
        }
        #expect(updates > 50)
        #expect(fallbacks > 0)
    }

    @Test("an area whose every cell falls to zero is reported as changed, with no cells", arguments: StoreBackend.allCases)
    func zeroedArea(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await Self.submitOne(s)
        let before = try await s.dataVersion()
        let first = try #require(try await s.counterChanges(layer: "halls", basis: .occurred, since: before, limit: 10))
        #expect(first.areaIDs == ["H01"])
        #expect(first.cells.map(\.1) == [1])
        _ = try await s.transition(reportID: "r1", .reject, reason: "duplicate", actor: "v", expectedVersion: nil)
        let after = try #require(try await s.counterChanges(layer: "halls", basis: .occurred, since: before, limit: 10))
        #expect(after.areaIDs == ["H01"])
        #expect(after.cells.isEmpty, "a rejected report counts neither as verified nor as pending")
        #expect(try await s.counterSnapshot(layer: "halls", basis: .occurred).cells.isEmpty)
        #expect(try await s.checkCounters().isEmpty, "cells kept at zero are no difference")
        #expect(try await s.counterChanges(layer: "halls", basis: .occurred, since: before, limit: 0) == nil)
        #expect(try await s.counterChanges(layer: "halls", basis: .occurred, since: after.dataVersion + 1, limit: 10)?.areaIDs == [])
    }

    @Test("after a counter rebuild, changes since an older version are refused (the view is computed again whole)", arguments: StoreBackend.allCases)
    func rebuildRefusesOlderViews(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        try await Self.submitOne(s)
        let before = try await s.dataVersion()
        #expect(try await s.counterChanges(layer: "halls", basis: .occurred, since: before, limit: 10) != nil)
        try t.raw("DELETE FROM counters")
        #expect(try await s.rebuildCounters() > 0)
        let after = try await s.dataVersion()
        #expect(after > before)
        #expect(try await s.counterChanges(layer: "halls", basis: .occurred, since: before, limit: 10) == nil)
        let fresh = try #require(try await s.counterChanges(layer: "halls", basis: .occurred, since: after, limit: 10))
        #expect(fresh.cells.map(\.1) == [1], "a view computed after the rebuild is updated as usual")
    }

    /// One pending COVID report in hall H01.
    static func submitOne(_ s: any GeoserveStore) async throws {
        let at = Date(timeIntervalSince1970: 1_790_000_000)
        let r = ReportRecord(id: "r1", kind: .covid, status: .pending, version: 1, reporterID: nil, submittedAt: at, updatedAt: at,
                             occurredOn: Day(year: 2026, month: 9, day: 20), payload: Data("{}".utf8), lon: nil, lat: nil,
                             areas: [AreaAssignment(layer: "halls", layerVersion: 0, areaID: "H01")], group: nil)
        _ = try await s.submit(ReportSubmission(record: r, idempotencyKey: nil))
    }

    /// The release computed whole from a snapshot, and the version it holds.
    static func whole(_ s: any GeoserveStore, _ request: StatisticsRequest, areaIDs: [String]) async throws -> (statistics: LiveStatistics?, version: Int64) {
        let snapshot = try await s.counterSnapshot(layer: request.layer, basis: request.basis)
        let stats = Statistics.compute(request, areaIDs: areaIDs, counters: snapshot.cells, denominators: denominators)
        return (LiveStatistics(stats, control: control, audience: .verifier), snapshot.dataVersion)
    }
}
