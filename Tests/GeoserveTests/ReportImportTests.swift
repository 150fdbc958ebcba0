import Aggregation
import ArgumentParser
import DomainKernel
import Foundation
import Logging
import ReportVerification
import Storage
import Support
import Testing
@testable import GeoserveApp
@testable import geoserve

@Suite("report import and export")
struct ReportImportTests {
    static let header = "id,kind,status,occurred_on,submitted_at,verified_on,lon,lat,area_layer,area_id,group,payload\n"

    /// A store with the demo campus published.
    func demoStore(_ folder: URL) async throws -> String {
        let db = try testDatabase(in: folder, named: "g.sqlite")
        let store = try openStore(db)
        try await store.migrate()
        try await DemoData.importIfEmpty(into: store, from: repositoryRoot.appendingPathComponent("data").path, logger: .init(label: "test"))
        return db
    }

    @Test("rows are checked one by one: every bad row is named by its line with what is wrong")
    func rowProblems() {
        let csv = Self.header + """
            a1,covid,verified,2026-11-01,2026-11-02T10:00:00Z,,-87.6003,41.7894,,,student,"{""note"":""x""}"
            a2,flu,pending,2026-11-01,,,-87.6003,41.7894,,,,
            a3,covid,pending,2099-01-01,,,-87.6003,41.7894,,,,
            a4,misconduct,pending,2026-11-01,,,-190,41.7894,,,,
            a5,covid,pending,2026-11-01,,,,,,,,
            a1,covid,rejected,2026-11-01,,2026-11-02,-87.6003,41.7894,,,teacher,[1]
            a7,misconduct,verified,2026-11-01,,,,,halls,H02,,

            """
        let file = ReportFile(data: Data(csv.utf8), geoJSON: false, now: (Instant("2026-11-23T12:00:00Z") as Instant).date, timeZone: TimeZone(identifier: "UTC")!)
        #expect(file.entries.map(\.id) == ["a1", "a7"])
        #expect(file.entries.first?.verifiedOn == Day(iso: "2026-11-02"))
        #expect(file.problems.map(\.description) == [
            "line 3: kind must be covid or misconduct",
            "line 4: occurred_on is after today",
            "line 5: lon must be -180 to 180 and lat -90 to 90",
            "line 6: give either lon and lat, or area_layer and area_id",
            "line 7: id a1 occurs twice in the file",
            "line 7: verified_on is only for verified or revoked reports",
            "line 7: group must be one of \(Report.breakdownGroupsText(.covid))",
            "line 7: payload must be a JSON object",
        ])
        let header = ReportFile(data: Data("kind,when\ncovid,2026-11-01\n".utf8), geoJSON: false, now: Date(), timeZone: .current)
        #expect(header.problems.map(\.description) == ["line 1: unknown column \"when\"; the columns are \(ReportCSV.columns.joined(separator: ", "))",
                                                      "line 1: the column \"occurred_on\" is missing"])
    }

    @Test("GeoJSON points carry the same properties; the geometry is the location; problems are named by feature")
    func geoJSONRows() {
        let json = #"""
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":"g1","geometry":{"type":"Point","coordinates":[-87.6003,41.7894]},
               "properties":{"kind":"misconduct","status":"verified","occurred_on":"2026-11-01","payload":{"source":"old system"}}},
              {"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":{"kind":"covid","occurred_on":"2026-11-01"}},
              {"type":"Feature","geometry":null,"properties":{"kind":"covid","occurred_on":"2026-11-01","area_layer":"halls","area_id":"H02","colour":"red"}}
            ]}
            """#
        let file = ReportFile(data: Data(json.utf8), geoJSON: true, now: (Instant("2026-11-23T12:00:00Z") as Instant).date, timeZone: TimeZone(identifier: "UTC")!)
        #expect(file.entries.map(\.id) == ["g1"])
        #expect(file.entries.first?.location == .location(lon: -87.6003, lat: 41.7894, accuracyMetres: nil))
        #expect(file.entries.first.map { String(decoding: $0.payload, as: UTF8.self) } == #"{"source":"old system"}"#)
        #expect(file.problems.map(\.description) == ["feature 2: the geometry is not a Point", "feature 3: unknown property \"colour\""])
    }

    @Test("payloads are checked as JSON objects without building them, refusing what the strict parser refuses")
    func jsonSyntax() {
        func isObject(_ text: String) -> Bool { (try? JSONParser.check(Array(text.utf8), object: true)) != nil }
        for good in [#"{}"#, #" {"a": [1, -2.5e3, true, false, null, "x\"\u00e9"], "b": {"c": {}}} "#, #"{"n":0,"m":-0.0,"s":1e-300,"t":0e-999}"#,
                     #"{"pair":"\ud83d\ude00"}"#] {
            #expect(isObject(good), "\(good)")
        }
        // Not an object, or an object with a flaw: a missing value, a trailing comma, a leading
        // zero, a bad escape, trailing text, a misspelt literal, a raw line break, deep nesting,
        // a member named twice (also when escaped), an unpaired surrogate, numbers out of range
        // both ways, invalid UTF-8.
        for bad in ["", "[]", "1", #"{"a":}"#, #"{"a":1,}"#, #"{"a":01}"#, #"{"a":"\x"}"#, #"{"a":1} x"#, #"{"a":tru}"#, "{\"a\":\"\n\"}",
                    "{\"a\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}",
                    #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"s":"\uD800"}"#, #"{"s":"\uDC00x"}"#, #"{"n":1e400}"#, #"{"n":-1e400}"#, #"{"n":1e-400}"#] {
            #expect(!isObject(bad), "\(bad)")
        }
        #expect((try? JSONParser.check([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], object: true)) == nil, "invalid UTF-8 in a member name")
    }

    @Test("a file with one bad row imports nothing: no report, no counter, no audit entry, the same data version")
    func nothingHalfImported() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try await demoStore(folder)
        let store = try openStore(db)
        let version = try await store.dataVersion()
        let file = folder.appendingPathComponent("bad.csv")
        // Every row reads well; the last names a hall the campus does not have.
        try write(Self.header + (0..<50).map { _ in ",covid,verified,2026-11-01,,,-87.6003,41.7894,,,student,\n" }.joined() + ",covid,pending,2026-11-01,,,,,halls,H99,,\n",
                  to: file)
        await #expect(throws: ExitCode(1)) { try await ImportReportsCommand.parse([file.path, "--database", db, "--keys", testKeysPath(for: db)]).run() }
        // An empty file (which cannot be mapped) is refused for its missing header, not read.
        let empty = folder.appendingPathComponent("empty.csv")
        try write("", to: empty)
        await #expect(throws: ExitCode(1)) { try await ImportReportsCommand.parse([empty.path, "--database", db, "--keys", testKeysPath(for: db)]).run() }
        #expect(try await store.queue(QueueFilter(statuses: ReportStatus.allCases), limit: 10, cursor: nil).reports.isEmpty)
        #expect(try await store.counterSnapshot(layer: "halls", basis: .occurred).cells.isEmpty)
        #expect(try await store.events(action: "import-reports").isEmpty)
        #expect(try await store.dataVersion() == version)
    }

    @Test("an import is placed, counted and audited as one event; its export imports into another store and exports the same bytes; a second import of the same ids is refused whole")
    func roundTrip() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try await demoStore(folder)
        let csv = Self.header
            + (0..<12).map { ",covid,verified,2026-11-0\($0 % 9 + 1),2026-11-10T08:00:00Z,,-87.6003,41.7894,,,student,\"{\"\"n\"\":\($0)}\"\n" }.joined()
            + (0..<5).map { "m\($0),misconduct,pending,2026-11-03,2026-11-04T08:00:00.5Z,,-87.6003,41.7894,,,,\n" }.joined()
            + "h1,covid,rejected,2026-11-05,,,,,halls,H02,staff,\n"
        let file = folder.appendingPathComponent("reports.csv")
        try write(csv, to: file)
        try await ImportReportsCommand.parse([file.path, "--database", db, "--keys", testKeysPath(for: db)]).run()
        let store = try await openKeyedStore(db)
        let all = try await store.queue(QueueFilter(statuses: ReportStatus.allCases), limit: 100, cursor: nil).reports
        #expect(all.count == 18)
        #expect(all.filter { $0.status == .verified }.allSatisfy { $0.areas.map(\.areaID) == ["H01", "Z1"] && $0.verifiedOn == Day(iso: "2026-11-10") })
        #expect(all.first { $0.id == "h1" }?.areas.first == AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H02"))
        #expect(try await store.checkCounters().isEmpty)
        let cells = try await store.counterSnapshot(layer: "halls", basis: .verified).cells
        #expect(cells.filter { $0.0.areaID == "H01" && $0.0.status == .verified }.map(\.1).reduce(0, +) == 12)
        let events = try await store.events(action: "import-reports")
        // The digest of the file as it lies on disk, computed by coreutils.
        let digest = try sha256sum(file)
        #expect(events.count == 1 && events[0].reason == "file=reports.csv rows=18 sha256=\(digest)")
        #expect(try await store.verifyAuditChain() == nil)

        let exported = folder.appendingPathComponent("out.csv")
        // Every payload and exact location: the owner's alone, whatever the umask and even over a
        // file that was readable by others.
        let previous = umask(0o022)
        defer { umask(previous) }
        #expect(FileManager.default.createFile(atPath: exported.path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        try await ExportReportsCommand.parse(["--out", exported.path, "--database", db, "--keys", testKeysPath(for: db)]).run()
        #expect((try FileManager.default.attributesOfItem(atPath: exported.path)[.posixPermissions] as? Int) == 0o600)
        #expect(try await store.events(action: "export-reports").map(\.reason) == ["rows=18"])
        let other = try await demoStore(folder.appendingPathComponent("other"))
        try await ImportReportsCommand.parse([exported.path, "--database", other, "--keys", testKeysPath(for: other)]).run()
        let again = folder.appendingPathComponent("again.csv")
        try await ExportReportsCommand.parse(["--out", again.path, "--database", other, "--keys", testKeysPath(for: other)]).run()
        #expect(try Data(contentsOf: again) == Data(contentsOf: exported))
        #expect(String(decoding: try Data(contentsOf: exported), as: UTF8.self).hasPrefix(Self.header))

        await #expect(throws: ExitCode(1)) { try await ImportReportsCommand.parse([exported.path, "--database", db, "--keys", testKeysPath(for: db)]).run() }
        #expect(try await store.queue(QueueFilter(statuses: ReportStatus.allCases), limit: 100, cursor: nil).reports.count == 18)
    }

    @Test("a first import writes its layers' counters whole and a later one adds to them: after each, every cell equals a recount of the stored reports")
    func countersAcrossImports() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try await demoStore(folder)
        func rows(_ prefix: String, _ count: Int) -> String {
            Self.header + (0..<count).map { "\(prefix)\($0),covid,verified,2026-11-0\($0 % 9 + 1),2026-11-10T08:00:00Z,,-87.6003,41.7894,,,student,\n" }.joined()
        }
        let first = folder.appendingPathComponent("first.csv"), second = folder.appendingPathComponent("second.csv")
        try write(rows("a", 30), to: first)
        try write(rows("b", 20), to: second)
        let store = try await openKeyedStore(db)
        func hallTotal() async throws -> Int {
            try await store.counterSnapshot(layer: "halls", basis: .verified).cells.filter { $0.0.areaID == "H01" && $0.0.status == .verified }.map(\.1).reduce(0, +)
        }
        try await ImportReportsCommand.parse([first.path, "--database", db, "--keys", testKeysPath(for: db)]).run()
        #expect(try await store.checkCounters().isEmpty)
        #expect(try await hallTotal() == 30)
        try await ImportReportsCommand.parse([second.path, "--database", db, "--keys", testKeysPath(for: db)]).run()
        #expect(try await store.checkCounters().isEmpty)
        #expect(try await hallTotal() == 50)
        #expect(try await store.verifyAuditChain() == nil)
    }


    @Test("rows are stored while later ones are read: a bad row after parts were handed to the store rolls every part back and names all the file's problems; a file of no rows writes nothing")
    func streamedImportAllOrNothing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try await demoStore(folder)
        let store = try await openKeyedStore(db)
        let catalog = LayerCatalog()
        try await catalog.refresh(from: store)
        let placement = ReportPlacement(layers: catalog.snapshot(), refusesOutside: false)
        let version = try await store.dataVersion()
        let zone = TimeZone(identifier: "UTC")!
        func good(_ n: Int) -> String { "s\(n),covid,verified,2026-11-01,2026-11-02T08:00:00Z,,-87.6003,41.7894,,,student,\n" }
        func expectNothingStored() async throws {
            #expect(try await store.queue(QueueFilter(statuses: ReportStatus.allCases), limit: 10, cursor: nil).reports.isEmpty)
            #expect(try await store.counterSnapshot(layer: "halls", basis: .verified).cells.isEmpty)
            #expect(try await store.events(action: "import-reports").isEmpty)
            #expect(try await store.dataVersion() == version)
        }

        // Rows 2–36 read well and go to the store in parts of 10; line 37 has no date, line 40
        // an unknown kind: both are named, and the parts already stored are rolled back.
        let bad = Self.header + (0..<35).map(good).joined() + ",covid,pending,,,,-87.6003,41.7894,,,,\n" + (35..<37).map(good).joined()
            + ",riot,pending,2026-11-01,,,-87.6003,41.7894,,,,\n" + (37..<50).map(good).joined()
        let rows = ReportFileImport(ReportFileReader(data: Data(bad.utf8), geoJSON: false, now: Date(), timeZone: zone), placement: placement, partSize: 10)
        // An embedded store's log holds a commit before the import; the refused import empties it
        // as a finished one does (a rolled-back import's pages filled a disk).
        let log = db + "-wal"
        func logBytes() -> Int { (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0 }
        let embedded = !db.hasPrefix("postgres")
        if embedded {
            try await store.probeWrite(bytes: 0)
            #expect(logBytes() > 0)
        }
        do {
            _ = try await store.importReports(rows, actor: "test") { "rows=\($0)" }
            Issue.record("a file with bad rows was imported")
        } catch let refused as ReportFileImport.Refused {
            #expect(refused.problems.map(\.description) == ["line 37: occurred_on must be a date YYYY-MM-DD", "line 40: kind must be covid or misconduct"])
        }
        #expect(rows.tally.reports == 30)  // three parts went to the store before line 37 was read
        try await expectNothingStored()
        if embedded { #expect(logBytes() == 0, "a refused import leaves the write-ahead log empty") }

        // An area that does not exist, after parts were stored: the placement's problem.
        let unplaced = Self.header + (0..<25).map(good).joined() + ",covid,pending,2026-11-01,,,,,halls,H99,,\n"
        let second = ReportFileImport(ReportFileReader(data: Data(unplaced.utf8), geoJSON: false, now: Date(), timeZone: zone), placement: placement, partSize: 10)
        await #expect(throws: ReportFileImport.Refused.self) { _ = try await store.importReports(second, actor: "test") { "rows=\($0)" } }
        try await expectNothingStored()

        // A header alone: nothing to import, nothing written.
        let empty = ReportFileImport(ReportFileReader(data: Data(Self.header.utf8), geoJSON: false, now: Date(), timeZone: zone), placement: placement)
        #expect(try await store.importReports(empty, actor: "test") { "rows=\($0)" } == 0)
        try await expectNothingStored()
    }
}

/// The SHA-256 of a file as `sha256sum` prints it.
private func sha256sum(_ file: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [file.path]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let printed = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: printed, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}

extension Report {
    /// A kind's groups as the import's message lists them.
    static func breakdownGroupsText(_ kind: ReportKind) -> String { breakdownGroups(of: kind).map(\.name).joined(separator: ", ") }
}
