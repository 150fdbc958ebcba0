import Aggregation
import ArgumentParser
import Foundation
import GeoCore
import MapTiles
import Storage
import Testing
@testable import GeoserveApp
@testable import geoserve

@Suite("CLI")
struct CommandTests {
    let squares = #"""
    {"type":"FeatureCollection","features":[
     {"type":"Feature","id":"west","properties":{"name":"West"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},
     {"type":"Feature","id":"east","properties":{"name":"East"},"geometry":{"type":"Polygon","coordinates":[[[1,0],[2,0],[2,1],[1,1],[1,0]]]}},
     {"type":"Feature","id":"empty","properties":{},"geometry":{"type":"Polygon","coordinates":[[[5,5],[6,5],[6,6],[5,6],[5,5]]]}}
    ]}
    """#

    @Test("import-areas stores and publishes a layer")
    func importAreas() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(squares, to: folder.appendingPathComponent("a.geojson"))
        let db = try testDatabase(in: folder, named: "db.sqlite")
        try await ImportAreasCommand.parse([folder.appendingPathComponent("a.geojson").path, "--layer", "zones", "--database", db, "--keys", testKeysPath(for: db)]).run()
        let (info, areas) = try await openStore(db).publishedAreas(layer: "zones")
        #expect(info.version == 1)
        #expect(areas.map(\.id) == ["east", "empty", "west"])
    }

    /// A layer of `count` squares named `c0`, `c1`, … in rows of `columns` from the origin.
    static func grid(count: Int, columns: Int, side: Double) -> String {
        let cells = (0..<count).map { i in
            let (x, y) = (Double(i % columns) * side, Double(i / columns) * side)
            return #"{"type":"Feature","id":"c\#(i)","properties":{"name":"cell \#(i)"},"geometry":{"type":"Polygon","coordinates":[[[\#(x),\#(y)],[\#(x + side),\#(y)],[\#(x + side),\#(y + side)],[\#(x),\#(y + side)],[\#(x),\#(y)]]]}}"#
        }
        return #"{"type":"FeatureCollection","features":["# + cells.joined(separator: ",") + "]}"
    }

    @Test("an import-areas killed at any moment leaves the old version published or the new one, never a version stored but unpublished")
    func killedImport() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 4,000 squares: long enough an import that kills land inside it.
        try write(Self.grid(count: 4_000, columns: 80, side: 0.01), to: folder.appendingPathComponent("grid.geojson"))
        let db = try testDatabase(in: folder, named: "db.sqlite")
        try await openStore(db).migrate()
        var killedMidway = 0
        for round in 0..<8 {
            let pid = try spawn(LiveServer.executable.path, ["import-areas", folder.appendingPathComponent("grid.geojson").path, "--layer", "grid", "--database", db, "--keys", testKeysPath(for: db)])
            usleep(UInt32(150_000 + round * 120_000))
            kill(pid, SIGKILL)
            // Killed by the signal, not exited before it came (a zombie takes a kill too).
            if waitFor(pid) & 0x7f == SIGKILL { killedMidway += 1 }
            for layer in try await openStore(db).layers() {
                #expect(layer.publishedVersion != nil && layer.versions.map(\.version).max() == layer.publishedVersion,
                        "round \(round): versions \(layer.versions.map(\.version)), published \(String(describing: layer.publishedVersion))")
            }
        }
        #expect(killedMidway > 0)
    }

    @Test("import-areas saves the new version's area index and tile topology, so the first start after the import loads them instead of building them")
    func importSavesIndex() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 40,000 squares: an index above the size that is saved at all (a campus's is rebuilt).
        try write(Self.grid(count: 40_000, columns: 200, side: 0.001), to: folder.appendingPathComponent("grid.geojson"))
        let db = try testDatabase(in: folder, named: "db.sqlite")
        let indexes = folder.appendingPathComponent("indexes")
        try await ImportAreasCommand.parse([folder.appendingPathComponent("grid.geojson").path, "--layer", "grid", "--database", db, "--keys", testKeysPath(for: db),
                                            "--index-cache", indexes.path]).run()
        let saved = try FileManager.default.contentsOfDirectory(atPath: indexes.path).sorted()
        #expect(saved.count == 2 && saved.allSatisfy { $0.hasPrefix("grid.v1.") } && Set(saved.map { $0.split(separator: ".").last! }) == ["areaindex", "topology"], "\(saved)")
        // What serve does at start, with the same folder.
        let catalog = LayerCatalog(indexFiles: AreaIndexFiles(directory: indexes))
        let store = try await openKeyedStore(db)
        try await catalog.refresh(from: store)
        let layer = try #require(catalog.snapshot()["grid"])
        #expect(layer.indexSource == .loaded)
        #expect(layer.indexProblem == nil)
        #expect(layer.areaIndex?.area(containingLon: 0.0105, lat: 0.0205)?.id == "c4010")
        let statistics = StatisticsService(counters: store, publications: try await PublicationBook.loaded(from: store), policy: .default, timeZone: TimeZone(identifier: "UTC")!)
        let tiles = TileService(statistics: statistics, cacheBytes: 0, topologyFiles: TopologyFiles(directory: indexes))
        #expect(try await tiles.tileLayer(layer).topologySource == .loaded)
    }

    @Test("import-areas refuses a feature with a five-megabyte name, and one over --max-area-vertices, writing nothing")
    func oversizedFeatures() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = squares.replacingOccurrences(of: #""name":"West""#, with: #""name":"\#(String(repeating: "w", count: 5 << 20))""#)
        try write(huge, to: folder.appendingPathComponent("huge.geojson"))
        let db = try testDatabase(in: folder, named: "db.sqlite")
        await #expect(throws: ExitCode(1)) {
            try await ImportAreasCommand.parse([folder.appendingPathComponent("huge.geojson").path, "--layer", "zones", "--database", db, "--keys", testKeysPath(for: db)]).run()
        }
        try write(squares, to: folder.appendingPathComponent("a.geojson"))
        await #expect(throws: ExitCode(1)) {
            try await ImportAreasCommand.parse([folder.appendingPathComponent("a.geojson").path, "--layer", "zones", "--database", db, "--keys", testKeysPath(for: db),
                                                "--max-area-vertices", "4"]).run()
        }
        let store = try openStore(db)
        try await store.migrate()
        #expect(try await store.layers().isEmpty)
    }

    @Test("a rejected feature fails the import with exit code 1 and writes nothing, unless --skip-invalid")
    func rejected() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = squares.replacingOccurrences(of: #"[[[5,5],[6,5],[6,6],[5,6],[5,5]]]"#, with: #"[[[5,5],[6,6],[7,7],[5,5]]]"#)
        let file = folder.appendingPathComponent("bad.geojson").path
        try write(bad, to: URL(fileURLWithPath: file))
        let db = try testDatabase(in: folder, named: "db.sqlite")
        await #expect(throws: ExitCode(1)) { try await ImportAreasCommand.parse([file, "--layer", "zones", "--database", db, "--keys", testKeysPath(for: db)]).run() }
        let store = try openStore(db)
        try await store.migrate()
        #expect(try await store.layers().isEmpty)
        try await ImportAreasCommand.parse([file, "--layer", "zones", "--database", db, "--keys", testKeysPath(for: db), "--skip-invalid"]).run()
        let layers = try await store.layers()
        #expect(layers.first?.versions.first?.featureCount == 2)
        #expect(layers.first?.versions.first?.rejectedCount == 1)
    }

    @Test("layer names are restricted to a URL-safe alphabet")
    func layerName() {
        #expect(throws: (any Error).self) { try ImportAreasCommand.parse(["x.geojson", "--layer", "../etc"]) }
    }

    @Test("assign writes every area with zeros, in file order, and the unassigned row")
    func assign() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(squares, to: folder.appendingPathComponent("a.geojson"))
        // One point inside west, two in east, one on the shared edge (goes to "east", the smaller id), one outside.
        try write("name,lat,lon\nx,0.5,0.5\ny,0.5,1.5\nz,0.2,1.9\nedge,0.5,1\nout,9,9\n", to: folder.appendingPathComponent("p.csv"))
        let out = folder.appendingPathComponent("counts.csv")
        try await AssignCommand.parse(["--areas", folder.appendingPathComponent("a.geojson").path,
                                       "--points", folder.appendingPathComponent("p.csv").path,
                                       "--out", out.path, "--threads", "2"]).run()
        #expect(try String(contentsOf: out, encoding: .utf8) == "area_id,count\r\nwest,1\r\neast,3\r\nempty,0\r\nunassigned,1\r\n")
    }

    @Test("raw float64 points read as lon,lat pairs; a truncated file is refused")
    func rawPoints() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var values: [Double] = [1.5, 2.5, -87.6, 41.8]
        let data = Data(bytes: &values, count: 32)
        try data.write(to: folder.appendingPathComponent("p.f64"))
        #expect(try PointFile.read(path: folder.appendingPathComponent("p.f64").path) == values)
        try data.prefix(24).write(to: folder.appendingPathComponent("short.f64"))
        #expect(throws: PointFile.Problem.self) { try PointFile.read(path: folder.appendingPathComponent("short.f64").path) }
    }

    @Test("a CSV without lon and lat columns, or with a non-number, is refused with the line")
    func badCSV() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("x,y\n1,2\n", to: folder.appendingPathComponent("a.csv"))
        #expect(throws: PointFile.Problem.self) { try PointFile.read(path: folder.appendingPathComponent("a.csv").path) }
        try write("lon,lat\n1,2\n3,north\n", to: folder.appendingPathComponent("b.csv"))
        do {
            _ = try PointFile.read(path: folder.appendingPathComponent("b.csv").path)
            Issue.record("expected a failure")
        } catch let p as PointFile.Problem {
            #expect(p.description.hasSuffix("b.csv:3: lon and lat must be numbers"))
        }
    }

    @Test("cache sizes below zero are refused before anything starts; an unreachable or unknown database is refused with a clear message")
    func serveOptions() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try testDatabase(in: folder, named: "db.sqlite")
        for flag in ["--response-cache-mb", "--tile-cache-mb", "--statistics-cache-entries"] {
            await #expect(throws: ValidationError.self, "\(flag)") {
                try await ServeCommand.parse([flag + "=-1", "--database", db, "--keys", testKeysPath(for: db), "--demo-data", "none"]).run()
            }
        }
        #expect(!FileManager.default.fileExists(atPath: db))
        // An unreachable PostgreSQL fails at once with a message naming the server, never the password.
        await #expect {
            try await LayersCommand.parse(["--database", "postgres://geoserve:s3cret@127.0.0.1:1/geoserve", "--keys", folder.appendingPathComponent("k").path]).run()
        } throws: { error in
            let text = String(describing: error)
            return text.contains("unavailable") && text.contains("127.0.0.1") && !text.contains("s3cret")
        }
        await #expect {
            try await LayersCommand.parse(["--database", "mysql://localhost/geoserve"]).run()
        } throws: { error in
            (error as? ValidationError)?.message.contains("unknown database scheme") == true
        }
    }

    @Test("a command that only reads, given a store that does not exist, refuses and makes nothing there")
    func readingCommandsMakeNoStore() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("typo/geoserve.sqlite").path
        let store = ["--database", missing, "--keys", folder.appendingPathComponent("k").path]
        let commands: [any AsyncParsableCommand] = [
            try AggregatesCheckCommand.parse(store), try AuditVerifyCommand.parse(store), try LayersCommand.parse(store),
            try TimeZoneShowCommand.parse(store), try ExportReportsCommand.parse(store + ["--out", folder.appendingPathComponent("out.csv").path]),
        ]
        for var command in commands {
            await #expect(throws: CommandFailure.self, "\(type(of: command))") { try await command.run() }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("typo").path), "no folder made")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("k").path), "no key file made")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.csv").path))
    }
}
