import Aggregation
import ArgumentParser
import DomainKernel
import Foundation
import HTTPTypes
import Storage
import Testing
@testable import GeoserveApp
@testable import geoserve

/// The store knows the zone its days are counted in: served in one zone, every command that
/// leaves the zone out uses it, and a command or a process given another one is refused before
/// it writes. Zones 25 hours apart (UTC+14 and UTC−11), so that the day of a verification is
/// another day in the other zone at every hour.
@Suite("the store's time zone")
struct StoreTimeZoneTests {
    static let kiritimati = TimeZone(identifier: "Pacific/Kiritimati")!
    static let pagoPago = TimeZone(identifier: "Pacific/Pago_Pago")!

    /// A service served in Kiritimati with three verified reports.
    func servedInKiritimati() async throws -> TestService {
        var service = try await TestService()
        service.configuration.timeZone = Self.kiritimati
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            for _ in 0..<3 {
                let (status, created, _) = try await client.submit(Drafts.covid(hall: "H07"))
                #expect(status == .created)
                let (verified, _) = try await client.json(.post, "/v1/reports/\(created["id"] as? String ?? "")/transitions", token: admin,
                                                          body: #"{"transition":"verify"}"#)
                #expect(verified == .ok)
            }
        }
        return service
    }

    func options(_ db: String, _ extra: [String] = []) -> [String] { ["--database", db, "--keys", testKeysPath(for: db)] + extra }

    func counters(_ db: String) async throws -> [CounterKey: Int] {
        let store = try await openKeyedStore(db)
        var out: [CounterKey: Int] = [:]
        for layer in ["halls", "zones"] {
            for basis in TimeBasis.allCases {
                for (key, n) in try await store.counterSnapshot(layer: layer, basis: basis).cells { out[key] = n }
            }
        }
        return out
    }

    @Test("served in one zone, check then rebuild with no zone given stay in it; a command given another zone is refused and writes nothing")
    func commandsUseTheRecordedZone() async throws {
        let service = try await servedInKiritimati()
        defer { service.remove() }
        let db = service.configuration.database
        let opened = try await StoreOptions.parse(options(db)).opened()
        #expect(opened.timeZone.identifier == "Pacific/Kiritimati")
        #expect(opened.zoneRecorded)
        let before = try await counters(db)
        #expect(!before.isEmpty)

        // The sequence the zone-less check used to break: check, "repair", check in the service's zone.
        try await AggregatesCheckCommand.parse(options(db)).run()
        try await AggregatesRebuildCommand.parse(options(db)).run()
        #expect(try await counters(db) == before)
        try await AggregatesCheckCommand.parse(options(db, ["--time-zone", "Pacific/Kiritimati"])).run()

        // Another zone: refused, naming both, before anything is written.
        for command in [["check"], ["rebuild"]] {
            let refused = await #expect(throws: CommandFailure.self) {
                if command == ["check"] {
                    try await AggregatesCheckCommand.parse(options(db, ["--time-zone", "Pacific/Pago_Pago"])).run()
                } else {
                    try await AggregatesRebuildCommand.parse(options(db, ["--time-zone", "Pacific/Pago_Pago"])).run()
                }
            }
            #expect(refused?.description.contains("Pacific/Kiritimati") == true)
            #expect(refused?.description.contains("Pacific/Pago_Pago") == true)
        }
        #expect(try await counters(db) == before)
        #expect(try await openKeyedStore(db).existingSecret(named: StoreTimeZone.marker) == "Pacific/Kiritimati")

        // A tampered cell: the check recommends the rebuild in the recorded zone, which repairs it.
        try rawSQL("UPDATE counters SET n = n + 1 WHERE status = 'verified'", on: db)
        await #expect(throws: ExitCode(1)) { try await AggregatesCheckCommand.parse(options(db)).run() }
        try await AggregatesRebuildCommand.parse(options(db)).run()
        #expect(try await counters(db) == before)
    }

    @Test("a service given another zone than the store's does not start, and the store keeps its zone")
    func serviceRefusesAnotherZone() async throws {
        var service = try await servedInKiritimati()
        defer { service.remove() }
        service.configuration.timeZone = Self.pagoPago
        let refused = await #expect(throws: StoreTimeZone.Mismatch.self) { try await service.run { _ in } }
        #expect(refused == StoreTimeZone.Mismatch(recorded: "Pacific/Kiritimati", given: "Pacific/Pago_Pago"))
        // Left to the store, it starts in the store's zone.
        service.configuration.timeZone = TimeZone(identifier: "UTC")!
        service.configuration.timeZoneGiven = false
        try await service.run { client in
            let (status, body) = try await client.json(.get, "/v1/publications")
            #expect(status == .ok)
            let schedule = body["schedule"] as? [String: Any]
            #expect(schedule?["timeZone"] as? String == "Pacific/Kiritimati", "\(body)")
        }
    }

    @Test("a store from before zones were recorded: the check does not recommend a rebuild, the rebuild wants the zone, and giving it records it")
    func storeWithoutARecordedZone() async throws {
        let service = try await servedInKiritimati()
        defer { service.remove() }
        let db = service.configuration.database
        try rawSQL("DELETE FROM secrets WHERE name = 'time_zone'", on: db)
        let before = try await counters(db)
        let opened = try await StoreOptions.parse(options(db)).opened()
        #expect(!opened.zoneRecorded)
        #expect(StoreTimeZone.name(opened.timeZone) == "UTC")

        let refused = await #expect(throws: CommandFailure.self) { try await AggregatesRebuildCommand.parse(options(db)).run() }
        #expect(refused?.description.contains("--time-zone") == true)
        #expect(try await counters(db) == before)
        #expect(try await openKeyedStore(db).existingSecret(named: StoreTimeZone.marker) == nil)

        // The operator names the service's zone: it is recorded, and the store is whole in it.
        try await AggregatesCheckCommand.parse(options(db, ["--time-zone", "Pacific/Kiritimati"])).run()
        #expect(try await openKeyedStore(db).existingSecret(named: StoreTimeZone.marker) == "Pacific/Kiritimati")
        try await AggregatesRebuildCommand.parse(options(db)).run()
        #expect(try await counters(db) == before)
    }

    @Test("time-zone set, then set back: the counters move to the other zone's days and back to exactly what they were; the check passes after each")
    func setThenSetBack() async throws {
        let service = try await servedInKiritimati()
        defer { service.remove() }
        let db = service.configuration.database
        let before = try await counters(db)
        try await TimeZoneSetCommand.parse(["Pacific/Pago_Pago"] + options(db)).run()
        let moved = try await counters(db)
        // Every submission lies on the day before in a zone 25 hours behind; a verification keeps
        // the day it was made on, as the verifier saw it.
        let submitted = before.filter { $0.key.basis == .submitted }, movedSubmitted = moved.filter { $0.key.basis == .submitted }
        #expect(!submitted.isEmpty)
        #expect(Set(movedSubmitted.keys.map(\.day)) == Set(submitted.keys.map { $0.day.adding(days: -1) }))
        #expect(movedSubmitted.values.reduce(0, +) == submitted.values.reduce(0, +))
        #expect(moved.filter { $0.key.basis != .submitted } == before.filter { $0.key.basis != .submitted })
        try await AggregatesCheckCommand.parse(options(db)).run()
        #expect(try await StoreOptions.parse(options(db)).opened().timeZone == Self.pagoPago)
        try await TimeZoneSetCommand.parse(["Pacific/Kiritimati"] + options(db)).run()
        #expect(try await counters(db) == before)
        try await AggregatesCheckCommand.parse(options(db)).run()
        let events = try await openKeyedStore(db).events(action: "time-zone")
        #expect(events.count == 2)
    }

    @Test("a new store records the zone it is first opened in, UTC when none is given")
    func newStoreRecordsItsZone() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let given = try testDatabase(in: folder, named: "given.sqlite")
        #expect(try await StoreOptions.parse(options(given, ["--time-zone", "Pacific/Kiritimati"])).opened().timeZone == Self.kiritimati)
        #expect(try await StoreOptions.parse(options(given)).opened().timeZone == Self.kiritimati)
        let none = try testDatabase(in: folder, named: "none.sqlite")
        let first = try await StoreOptions.parse(options(none)).opened()
        #expect(StoreTimeZone.name(first.timeZone) == "UTC" && first.zoneRecorded)
        await #expect(throws: CommandFailure.self) { try await StoreOptions.parse(options(none, ["--time-zone", "Pacific/Kiritimati"])).opened() }
    }
}
