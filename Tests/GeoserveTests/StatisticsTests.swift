import Aggregation
import ArgumentParser
import DomainKernel
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
@testable import StorageSQLite
import Synchronization
import Testing
@testable import geoserve

/// Statistics as dashboards, verifiers and researchers see them over HTTP.
@Suite("statistics over HTTP")
struct StatisticsTests {
    /// Submits `count` anonymous covid reports for a hall and verifies them as `admin`.
    func verifiedReports(_ client: any TestClientProtocol, admin: String, hall: String, count: Int, testDate: String = "2026-11-01") async throws {
        for _ in 0..<count {
            let (status, created, _) = try await client.submit(Drafts.covid(hall: hall, testDate: testDate))
            #expect(status == .created)
            let (verified, _) = try await client.json(.post, "/v1/reports/\(created["id"] as? String ?? "")/transitions", token: admin,
                                                      body: #"{"transition":"verify"}"#)
            #expect(verified == .ok)
        }
    }

    /// A feature's properties, where its statistics are flat fields (`verified_14d`, …).
    func statistics(_ feature: [String: Any]) -> [String: Any] {
        feature["properties"] as? [String: Any] ?? [:]
    }

    func count(_ properties: [String: Any], _ window: String) -> Int? {
        properties["verified_\(window)"] as? Int
    }

    /// A count of the collection's `statistics.total`, which keeps the nested form.
    func totalCount(_ total: [String: Any], _ window: String) -> Int? {
        (total["counts"] as? [String: Any])?[window] as? Int
    }

    @Test("public features show verified counts of k or more, suppress smaller ones so no subtraction recovers them; verifiers see all and pending")
    func publicAndVerifier() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            try await verifiedReports(client, admin: admin, hall: "H06", count: 12)
            try await verifiedReports(client, admin: admin, hall: "H07", count: 12)
            try await verifiedReports(client, admin: admin, hall: "H08", count: 1)
            let (pending, _, _) = try await client.submit(Drafts.covid(hall: "H09"))
            #expect(pending == .created)
            let uri = "/collections/halls/items?kind=covid&datetime=2026-11-10&limit=100"
            let (s, h, body) = try await client.getJSON(uri)
            #expect(s == .ok)
            #expect(h[.cacheControl] == "public, no-cache")
            let features = Dictionary(uniqueKeysWithValues: (body["features"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0) })
            let h06 = statistics(features["H06"] ?? [:]), h07 = statistics(features["H07"] ?? [:])
            let h08 = statistics(features["H08"] ?? [:]), h09 = statistics(features["H09"] ?? [:])
            // Complementary suppression hides one of the two large halls with the small one; the other is shown.
            let shown = [h06, h07].filter { count($0, "all") != nil }
            #expect(shown.count == 1)
            #expect(shown.allSatisfy { count($0, "all") == 12 && count($0, "14d") == 12 && count($0, "7d") == 0 })
            // A single verified report is never shown as its value; it is null and named in `suppressed`.
            #expect(h08["verified_all"] is NSNull)
            #expect((h08["suppressed"] as? String)?.split(separator: ",").contains("verified_all") == true)
            // Pending reports are not public numbers: H09 has zero verified and no pending field.
            #expect(count(h09, "all") == 0)
            #expect(h09["pending_all"] == nil)
            // Complementary suppression: with H08 hidden, the layer total and the other areas cannot both be shown.
            let header = body["statistics"] as? [String: Any] ?? [:]
            #expect(header["threshold"] as? Int == 11)
            let total = totalCount(header["total"] as? [String: Any] ?? [:], "all")
            let others = features.filter { $0.key != "H08" }.map { count(statistics($0.value), "all") }
            if let total, others.allSatisfy({ $0 != nil }) {
                Issue.record("H08 = \(total) - \(others.compactMap { $0 }.reduce(0, +)) is derivable")
            }
            // Verifiers see the small count and pending counts, privately.
            let (vs, vh, vbody) = try await client.getJSON(uri, headers: [.authorization: "Bearer \(admin)"])
            #expect(vs == .ok)
            #expect(vh[.cacheControl] == "private, no-store")
            let vfeatures = Dictionary(uniqueKeysWithValues: (vbody["features"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0) })
            #expect(count(statistics(vfeatures["H08"] ?? [:]), "all") == 1)
            #expect(statistics(vfeatures["H09"] ?? [:])["pending_all"] as? Int == 1)
            // The HTML page shows the same numbers as a table: the small count as withheld, the
            // shown hall's count as its number, and no raw property text.
            let page = try await client.execute(uri: uri + "&f=html", method: .get) { String(buffer: $0.body) }
            func row(_ id: String) -> Substring {
                guard let start = page.range(of: ">\(id)</a>") else { return "" }
                return page[start.upperBound...].prefix { $0 != "\n" }.split(separator: "</tr>").first ?? ""
            }
            #expect(row("H08").contains("withheld"))
            let shownID = features.first { count(statistics($0.value), "all") == 12 }?.key ?? ""
            #expect(row(shownID).contains(">12</td>") && !row(shownID).contains("withheld"))
            #expect(!page.contains("verified_7d"))
            // A window that ends before the reports' day counts nothing.
            let (_, _, early) = try await client.getJSON("/collections/halls/items/H07?kind=covid&datetime=2026-10-15")
            #expect(count(statistics(early), "all") == 0)
        }
    }

    @Test("researcher export: one row per area and day, zeros included, small counts suppressed, recorded in the audit trail")
    func export() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            try await verifiedReports(client, admin: admin, hall: "H07", count: 12)
            try await verifiedReports(client, admin: admin, hall: "H08", count: 2)
            let researcher = try await client.account("researcher", admin: admin)
            let uri = "/v1/exports/area-stats?layer=halls&from=2026-10-31&to=2026-11-02&bucket=day&kind=covid"
            let csv = try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(researcher.token)"]) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "text/csv; charset=utf-8; header=present")
                #expect(r.headers[.init("X-Disclosure-Threshold")!] == "11")
                return String(buffer: r.body)
            }
            let lines = csv.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "area_id,bucket_start,bucket_end,verified,rate_per_1000,suppressed")
            #expect(lines.count == 1 + 42 * 3)
            #expect(lines.contains { $0.hasPrefix("H07,2026-11-01,2026-11-01,12,") && $0.hasSuffix(",false") })
            #expect(lines.contains("H08,2026-11-01,2026-11-01,,,true"))
            #expect(lines.contains { $0.hasPrefix("H07,2026-10-31,2026-10-31,0,") })
            // JSON carries the provenance.
            let (js, _, envelope) = try await client.getJSON(uri + "&format=json", headers: [.authorization: "Bearer \(researcher.token)"])
            #expect(js == .ok)
            #expect((envelope["provenance"] as? [String: Any])?["threshold"] as? Int == 11)
            #expect((envelope["rows"] as? [Any])?.count == 42 * 3)
            // Only researchers and admins export; bad parameters are named.
            let reporter = try await client.account("reporter", admin: admin)
            let (forbidden, _) = try await client.json(.get, uri, token: reporter.token)
            #expect(forbidden == .forbidden)
            let (bad, badBody) = try await client.json(.get, "/v1/exports/area-stats?layer=halls&from=2026-11-05&to=2026-11-01", token: researcher.token)
            #expect(bad == .badRequest)
            #expect(errorField(badBody) == "from")
            let (tooBig, tooBigBody) = try await client.json(.get, "/v1/exports/area-stats?layer=halls&from=1990-01-01&to=2026-11-01", token: researcher.token)
            #expect(tooBig == .badRequest)
            #expect(errorField(tooBigBody) == "to")
        }
        let store = try await openKeyedStore(service.configuration.database, keys: service.configuration.keysPath)
        let exports = try await store.events(action: "export")
        #expect(exports.count == 2)
        #expect(exports.first?.reason?.contains("layer=halls from=2026-10-31 to=2026-11-02 bucket=day kind=covid") == true)
        #expect(try await store.verifyAuditChain() == nil)
    }

    @Test("aggregates check passes on a served store, fails on a tampered one, and rebuild repairs it")
    func aggregatesCommands() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            try await verifiedReports(client, admin: admin, hall: "H07", count: 3)
        }
        let db = service.configuration.database
        try await AggregatesCheckCommand.parse(["--database", db, "--keys", testKeysPath(for: db)]).run()
        try rawSQL("UPDATE counters SET n = n + 1 WHERE status = 'verified'", on: db)
        await #expect(throws: ExitCode(1)) { try await AggregatesCheckCommand.parse(["--database", db, "--keys", testKeysPath(for: db)]).run() }
        try await AggregatesRebuildCommand.parse(["--database", db, "--keys", testKeysPath(for: db)]).run()
        try await AggregatesCheckCommand.parse(["--database", db, "--keys", testKeysPath(for: db)]).run()
    }
}

@Suite("layer re-import")
struct ReimportTests {
    @Test("a new layer version re-assigns every report in the same transaction; counters follow and still match a recompute")
    func reassign() async throws {
        let service = try await TestService()
        defer { service.remove() }
        let ids = Mutex<(located: String, named: String)>(("", ""))
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (_, m, _) = try await client.submit(Drafts.misconduct())
            let (_, c, _) = try await client.submit(Drafts.covid(hall: "H07"))
            let pair = (m["id"] as? String ?? "", c["id"] as? String ?? "")
            ids.withLock { $0 = pair }
            for id in [pair.0, pair.1] {
                let (s, _) = try await client.json(.post, "/v1/reports/\(id)/transitions", token: admin, body: #"{"transition":"verify"}"#)
                #expect(s == .ok)
            }
        }
        // The new version drops hall H01, where the located report lies.
        let original = try JSONSerialization.jsonObject(with: Data(contentsOf: repositoryRoot.appendingPathComponent("data/halls.geojson"))) as! [String: Any]
        var features = original["features"] as! [[String: Any]]
        features.removeAll { $0["id"] as? String == "H01" }
        let file = service.folder.appendingPathComponent("halls-v2.geojson")
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]).write(to: file)
        let db = service.configuration.database
        try await ImportAreasCommand.parse([file.path, "--layer", "halls", "--database", db, "--keys", testKeysPath(for: db)]).run()
        let store = try openStore(db)
        let (located, named) = ids.withLock { $0 }
        let moved = try #require(try await store.report(id: located))
        #expect(!moved.areas.contains { $0.layer == "halls" })
        #expect(moved.areas.contains { $0.layer == "zones" })
        let kept = try #require(try await store.report(id: named))
        #expect(kept.areas.first { $0.layer == "halls" } == AreaAssignment(layer: "halls", layerVersion: 2, areaID: "H07"))
        #expect(try await store.checkCounters().isEmpty)
        let halls = try await store.counterSnapshot(layer: "halls", basis: .occurred).cells
        #expect(!halls.contains { $0.0.areaID == "H01" })
        #expect(halls.contains { $0.0.areaID == "H07" && $0.0.status == .verified && $0.1 == 1 })
    }
}
