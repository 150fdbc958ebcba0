import Aggregation
import ArgumentParser
import DomainKernel
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ReportVerification
import Storage
import Testing
@testable import GeoserveApp
@testable import geoserve

@Suite("moving an installation between stores")
struct MigrateStoreTests {
    /// What a store holds, read through the store's own protocols.
    struct Contents: Equatable {
        let layers: [String]
        let reports: [ReportRecord]
        let accounts: [String]
        let history: [[String]]
        let dataVersion: Int64
        let counters: [String: Int]

        init(_ store: any GeoserveStore) async throws {
            layers = try await store.layers().map { "\($0.name) \($0.kind) \(String(describing: $0.publishedVersion)) \($0.versions.map(\.featureCount))" }
            reports = try await store.queue(QueueFilter(statuses: [.pending, .verified, .rejected, .revoked, .withdrawn]), limit: 1000, cursor: nil).reports
            accounts = try await store.accounts().map { "\($0.id) \($0.email) \($0.role) \($0.disabled) \($0.passwordHash)" }
            var history: [[String]] = []
            for r in reports { history.append(try await store.history(reportID: r.id).map { "\($0.sequence) \($0.action) \($0.hash)" }) }
            self.history = history
            dataVersion = try await store.dataVersion()
            counters = Dictionary(uniqueKeysWithValues: try await store.counterSnapshot(layer: "halls", basis: .occurred).cells.map { ("\($0.0)", $0.1) })
        }
    }

    @Test("migrate-store copies a served SQLite store into PostgreSQL and back: the same layers, reports, accounts, audit chain, counters and served numbers; a target holding data is refused")
    func roundTrip() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var c = AppConfiguration()
        c.database = folder.appendingPathComponent("a.sqlite").path
        c.demoDataPath = repositoryRoot.appendingPathComponent("data").path
        c.attachmentsPath = folder.appendingPathComponent("attachments").path
        c.keysPath = folder.appendingPathComponent("geoserve.keys").path
        c.logLevel = .error
        c.credentials = Credentials(workers: BcryptWorkers(threads: 2, queued: 10_000))
        // Served in a zone other than the default: the copy carries it (run with no zone given).
        c.timeZone = TimeZone(identifier: "America/Chicago")!
        let source = try openStore(c.database)
        try await source.migrate()
        _ = try await source.createAccount(email: TestService.adminEmail, role: .admin, passwordHash: await c.credentials.hash(password: TestService.password))
        let items = "/collections/halls/items?limit=100"
        let served = try await buildApplication(c).test(.router) { client in
            let admin = try await client.login(TestService.adminEmail)
            for i in 0..<14 {
                let (_, created, _) = try await client.submit(Drafts.covid(hall: "H01", testDate: MultiProcessTests.recentDay))
                let transition = i < 12 ? #"{"transition":"verify"}"# : #"{"transition":"reject","reason":"duplicate"}"#
                #expect(try await client.json(.post, "/v1/reports/\(created["id"] as? String ?? "")/transitions", token: admin, body: transition).0 == .ok)
            }
            _ = try await client.submit(Drafts.misconduct())
            return try await client.execute(uri: items, method: .get) { String(buffer: $0.body) }
        }
        let before = try await Contents(source)
        #expect(before.reports.count == 15 && before.counters.values.reduce(0, +) > 0)

        let postgres = try postgresTestDatabase()
        try await MigrateStoreCommand.parse(["--from", c.database, "--to", postgres, "--batch", "7"]).run()
        #expect(try await Contents(openStore(postgres)) == before)
        #expect(try await openStore(postgres).existingSecret(named: StoreTimeZone.marker) == "America/Chicago")
        var onPostgres = c
        onPostgres.database = postgres
        onPostgres.demoDataPath = nil
        onPostgres.timeZoneGiven = false
        try await buildApplication(onPostgres).test(.router) { client in
            let body = try await client.execute(uri: items, method: .get) { String(buffer: $0.body) }
            #expect(body == served)
        }
        await #expect(throws: CommandFailure.self) {
            try await MigrateStoreCommand.parse(["--from", c.database, "--to", postgres]).run()
        }

        let back = folder.appendingPathComponent("b.sqlite").path
        try await MigrateStoreCommand.parse(["--from", postgres, "--to", back, "--keys", c.keysPath!]).run()
        #expect(try await Contents(openStore(back)) == before)
        try await AuditVerifyCommand.parse(["--database", back, "--keys", testKeysPath(for: back)]).run()
    }
}
