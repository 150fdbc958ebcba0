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
@testable import GeoserveApp
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

    @Test("public features show only published blocks: nothing moves until a publication, a hall's reports appear once more than k gathered, a smaller hall's wait; verifiers see everything live")
    func publicAndVerifier() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            try await verifiedReports(client, admin: admin, hall: "H06", count: 12)
            try await verifiedReports(client, admin: admin, hall: "H07", count: 12)
            try await verifiedReports(client, admin: admin, hall: "H08", count: 1)
            let (pending, pendingReport, _) = try await client.submit(Drafts.covid(hall: "H09"))
            #expect(pending == .created)
            let uri = "/collections/halls/items?limit=100"
            func features(_ body: [String: Any]) -> [String: [String: Any]] {
                Dictionary(uniqueKeysWithValues: (body["features"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", statistics($0)) })
            }
            // Verified, not yet published: the public sees the start-up publication's zeros.
            let (_, _, before) = try await client.getJSON(uri)
            #expect(features(before)["H06"].flatMap { count($0, "all") } == 0)
            let id = try await client.publish(admin)
            let (s, h, body) = try await client.getJSON(uri)
            #expect(s == .ok)
            #expect(h[.cacheControl] == "public, no-cache")
            let shown = features(body)
            #expect(count(shown["H06"] ?? [:], "all") == 12 && count(shown["H06"] ?? [:], "7d") == 12)
            #expect(count(shown["H07"] ?? [:], "14d") == 12)
            // H08's single report waits for more than k in its class; H09's is pending.
            #expect(count(shown["H08"] ?? [:], "all") == 0)
            #expect(count(shown["H09"] ?? [:], "all") == 0)
            #expect(shown["H09"]?["pending_all"] == nil)
            // Every number is shown and they add up: nothing is withheld, so nothing is left to subtract.
            #expect(shown.values.allSatisfy { ($0["suppressed"] as? String) == "" })
            let header = body["statistics"] as? [String: Any] ?? [:]
            #expect(header["threshold"] as? Int == 11 && header["basis"] as? String == "published" && header["kind"] as? String == "covid")
            #expect((header["publication"] as? [String: Any])?["id"] as? Int == id)
            #expect(header["dataVersion"] == nil)
            #expect(totalCount(header["total"] as? [String: Any] ?? [:], "all") == shown.values.compactMap { count($0, "all") }.reduce(0, +))
            // Published numbers have one basis: asking for another is refused, not ignored.
            let (refused, _, error) = try await client.getJSON(uri + "&basis=verified")
            #expect(refused == .badRequest && errorField(error) == "basis")
            // Verifiers see the small count and pending counts, live and privately, on any basis.
            let live = "/collections/halls/items?kind=covid&datetime=2026-11-10&limit=100"
            let (vs, vh, vbody) = try await client.getJSON(live, headers: [.authorization: "Bearer \(admin)"])
            #expect(vs == .ok)
            #expect(vh[.cacheControl] == "private, no-store")
            let vfeatures = features(vbody)
            #expect(count(vfeatures["H08"] ?? [:], "all") == 1)
            #expect(vfeatures["H09"]?["pending_all"] as? Int == 1)
            #expect((vbody["statistics"] as? [String: Any])?["dataVersion"] is Int)
            // A verification updates the live view from the area it touched: H09 moves from
            // pending to verified, the other halls and the total follow exactly.
            let (verified, _) = try await client.json(.post, "/v1/reports/\(pendingReport["id"] as? String ?? "")/transitions", token: admin,
                                                      body: #"{"transition":"verify"}"#)
            #expect(verified == .ok)
            let (_, _, vafter) = try await client.getJSON(live, headers: [.authorization: "Bearer \(admin)"])
            let after = features(vafter)
            #expect(count(after["H09"] ?? [:], "all") == 1 && after["H09"]?["pending_all"] as? Int == 0)
            #expect(count(after["H06"] ?? [:], "all") == 12 && count(after["H08"] ?? [:], "all") == 1)
            let liveTotal = (vafter["statistics"] as? [String: Any])?["total"] as? [String: Any] ?? [:]
            #expect(totalCount(liveTotal, "all") == after.values.compactMap { count($0, "all") }.reduce(0, +))
            #expect(totalCount(liveTotal, "all") == 26)
            // The HTML page shows the same numbers as a table, and no raw property text.
            let page = try await client.execute(uri: uri + "&f=html", method: .get) { String(buffer: $0.body) }
            func row(_ id: String) -> Substring {
                guard let start = page.range(of: ">\(id)</a>") else { return "" }
                return page[start.upperBound...].prefix { $0 != "\n" }.split(separator: "</tr>").first ?? ""
            }
            #expect(row("H06").contains(">12</td>"))
            #expect(!page.contains("verified_7d"))
            // and says what they are: which publication, and why small numbers wait.
            #expect(page.contains("published by publication \(id) of") && page.contains("more than 11 of them have gathered"))
            // A day before the first publication has no publication: every count is zero.
            let (_, _, early) = try await client.getJSON("/collections/halls/items/H07?datetime=2026-10-15")
            #expect(count(statistics(early), "all") == 0)
        }
    }

    @Test("an items page whose numbers hold a withheld cell says so; one without says nothing of it")
    func withheldNote() async throws {
        var service = try await TestService()
        defer { service.remove() }
        // Verifiers protected at k = 5: a hall with two reports is withheld from their live view.
        service.configuration.disclosure = DisclosurePolicy(thresholds: [.public: 11, .researcher: 11, .verifier: 5], publicRecordKinds: [.misconduct])
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            try await verifiedReports(client, admin: admin, hall: "H08", count: 2)
            let live = "/collections/halls/items?kind=covid&datetime=2026-11-10&limit=100&f=html"
            let page = try await client.execute(uri: live, method: .get, headers: [.authorization: "Bearer \(admin)"]) { String(buffer: $0.body) }
            #expect(page.contains("class=\"withheld\">withheld</span>"))
            _ = try await client.publish(admin)
            let published = try await client.execute(uri: "/collections/halls/items?limit=100&f=html", method: .get) { String(buffer: $0.body) }
            #expect(published.contains("published by publication") && !published.contains("withheld"))
        }
    }

    @Test("researcher export: one row per area and day of the published blocks, zeros included, recorded in the audit trail")
    func export() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            try await verifiedReports(client, admin: admin, hall: "H07", count: 12)
            try await verifiedReports(client, admin: admin, hall: "H08", count: 2)
            let publication = try await client.publish(admin)
            let researcher = try await client.account("researcher", admin: admin)
            let today = Day.containing(Date(), in: TimeZone(identifier: "UTC")!)
            let uri = "/v1/exports/area-stats?layer=halls&from=\(today.adding(days: -2).iso)&to=\(today.iso)&bucket=day&kind=covid"
            let csv = try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(researcher.token)"]) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "text/csv; charset=utf-8; header=present")
                #expect(r.headers[.init("X-Disclosure-Threshold")!] == "11")
                #expect(r.headers[.init("X-Publication")!] == String(publication))
                return String(buffer: r.body)
            }
            let lines = csv.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "area_id,bucket_start,bucket_end,verified,rate_per_1000,suppressed")
            #expect(lines.count == 1 + 42 * 3)
            #expect(lines.contains { $0.hasPrefix("H07,\(today.iso),\(today.iso),12,") && $0.hasSuffix(",false") })
            // H08's two wait in the ledger: the export holds exactly what the public numbers do.
            #expect(lines.contains { $0.hasPrefix("H08,\(today.iso),\(today.iso),0,") })
            #expect(!lines.contains { $0.hasSuffix(",true") })
            // JSON carries the provenance.
            let (js, _, envelope) = try await client.getJSON(uri + "&format=json", headers: [.authorization: "Bearer \(researcher.token)"])
            #expect(js == .ok)
            let provenance = envelope["provenance"] as? [String: Any] ?? [:]
            #expect(provenance["threshold"] as? Int == 11 && provenance["publication"] as? Int == publication && provenance["basis"] as? String == "published")
            #expect((envelope["rows"] as? [Any])?.count == 42 * 3)
            // Only researchers and admins export; bad parameters are named; there is no other basis.
            let reporter = try await client.account("reporter", admin: admin)
            let (forbidden, _) = try await client.json(.get, uri, token: reporter.token)
            #expect(forbidden == .forbidden)
            let (bad, badBody) = try await client.json(.get, "/v1/exports/area-stats?layer=halls&from=2026-11-05&to=2026-11-01", token: researcher.token)
            #expect(bad == .badRequest)
            #expect(errorField(badBody) == "from")
            let (tooBig, tooBigBody) = try await client.json(.get, "/v1/exports/area-stats?layer=halls&from=1990-01-01&to=2026-11-01", token: researcher.token)
            #expect(tooBig == .badRequest)
            #expect(errorField(tooBigBody) == "to")
            let (basis, basisBody) = try await client.json(.get, uri + "&basis=occurred", token: researcher.token)
            #expect(basis == .badRequest && errorField(basisBody) == "basis")
        }
        let store = try await openKeyedStore(service.configuration.database, keys: service.configuration.keysPath)
        let exports = try await store.events(action: "export")
        #expect(exports.count == 2)
        #expect(exports.first?.reason?.contains("bucket=day kind=covid") == true)
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

    @Test("a report that named its hall follows the hall through a rename (same ground, new id) and back through the rollback")
    func namedReportFollowsARename() async throws {
        let service = try await TestService()
        defer { service.remove() }
        let named = Mutex("")
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (_, c, _) = try await client.submit(Drafts.covid(hall: "H07"))
            let id = c["id"] as? String ?? ""
            named.withLock { $0 = id }
            let (s, _) = try await client.json(.post, "/v1/reports/\(id)/transitions", token: admin, body: #"{"transition":"verify"}"#)
            #expect(s == .ok)
        }
        // The new version renames H07 to H07b and keeps its ground.
        let original = try JSONSerialization.jsonObject(with: Data(contentsOf: repositoryRoot.appendingPathComponent("data/halls.geojson"))) as! [String: Any]
        var features = original["features"] as! [[String: Any]]
        let i = try #require(features.firstIndex { $0["id"] as? String == "H07" })
        features[i]["id"] = "H07b"
        let file = service.folder.appendingPathComponent("halls-v2.geojson")
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]).write(to: file)
        let db = service.configuration.database
        try await ImportAreasCommand.parse([file.path, "--layer", "halls", "--database", db, "--keys", testKeysPath(for: db)]).run()
        let store = try openStore(db)
        let id = named.withLock { $0 }
        let renamed = try #require(try await store.report(id: id))
        #expect(renamed.areas.first { $0.layer == "halls" } == AreaAssignment(layer: "halls", layerVersion: 2, areaID: "H07b"))
        // The rollback brings the named id back, and the report with it.
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (s, body) = try await client.json(.post, "/v1/layers/halls/versions/1/publish", token: admin)
            #expect(s == .ok, "\(body)")
        }
        let back = try #require(try await store.report(id: id))
        #expect(back.areas.first { $0.layer == "halls" } == AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H07"))
        #expect(try await store.checkCounters().isEmpty)
    }
}
