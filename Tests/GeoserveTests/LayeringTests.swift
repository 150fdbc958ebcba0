import Foundation
import Testing

/// The direction of the code, read from the sources: the compiler keeps it between modules (a
/// module only sees what it depends on), these checks keep it where one module holds several
/// layers. Each names the file and the line that breaks it.
@Suite("layering")
struct LayeringTests {
    /// Swift files below a folder of `Sources`, with their lines.
    static func sources(_ folder: String) throws -> [(path: String, lines: [Substring])] {
        let root = repositoryRoot.appendingPathComponent("Sources/\(folder)")
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var out: [(String, [Substring])] = []
        for case let url as URL in walk where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            out.append((url.path.replacingOccurrences(of: repositoryRoot.path + "/", with: ""), text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// The lines of code, without `//` comments (a comment may name anything).
    static func code(_ lines: [Substring]) -> [(number: Int, text: Substring)] {
        lines.enumerated().compactMap { i, line in
            let text = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
            return text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : (i + 1, text)
        }
    }

    static let httpModules = ["Hummingbird", "HummingbirdCore", "HTTPTypes", "NIOHTTP1", "NIOHTTPTypes", "NIOHTTPTypesHTTP1"]

    @Test("no module below the app imports HTTP, the server or the command line")
    func modulesBelowTheApp() throws {
        var found: [String] = []
        for module in ["Support", "DomainKernel", "GeoCore", "ReportVerification", "Aggregation", "MapTiles", "Storage", "StorageSQLite", "StoragePostgres"] {
            for file in try Self.sources(module) {
                for line in Self.code(file.lines) where line.text.hasPrefix("import ") {
                    let imported = line.text.dropFirst("import ".count).trimmingCharacters(in: .whitespaces)
                    if Self.httpModules.contains(imported) || imported == "ArgumentParser" { found.append("\(file.path):\(line.number): import \(imported)") }
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("ReportVerification keeps clear of geometry and GEOS, and only GeoCore holds a GEOS handle")
    func geometryStaysInGeoCore() throws {
        var found: [String] = []
        for file in try Self.sources("ReportVerification") {
            for line in Self.code(file.lines) where line.text.hasPrefix("import GeoCore") || line.text.hasPrefix("import CGEOS") {
                found.append("\(file.path):\(line.number)")
            }
        }
        for module in ["MapTiles", "Storage", "StorageSQLite", "StoragePostgres", "GeoserveApp", "geoserve"] {
            for file in try Self.sources(module) {
                for line in Self.code(file.lines) where line.text.contains("GEOSContext") || line.text.hasPrefix("import CGEOS") {
                    found.append("\(file.path):\(line.number)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("the commands stand on the app library: only the executable imports ArgumentParser, and the app never imports the commands")
    func commandsOnTop() throws {
        var found: [String] = []
        for file in try Self.sources("GeoserveApp") {
            for line in Self.code(file.lines) where line.text.hasPrefix("import ArgumentParser") || line.text.hasPrefix("import geoserve") {
                found.append("\(file.path):\(line.number): \(line.text)")
            }
        }
        // The executable holds the commands and nothing else: a controller or service written
        // there would escape the app library's tests of direction.
        for file in try Self.sources("geoserve") where !file.path.hasPrefix("Sources/geoserve/CLI/") && !file.path.hasSuffix("GeoserveCommand.swift") {
            found.append("\(file.path): outside CLI/")
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("services, the store's helpers and the file readers speak no HTTP: only controllers, middleware and request parsing do")
    func servicesBelowHTTP() throws {
        let belowHTTP = ["Store/", "Input/", "Notifications/", "Support/", "App/Publications/Publisher.swift", "App/Reports/ReportPlacement.swift",
                         "App/Statistics/StatisticsService.swift", "App/Statistics/AreaStatsExport.swift", "App/LayerCatalog.swift",
                         "App/PublishedLayer.swift", "App/Demo/", "Auth/LoginThrottle.swift", "App/Tiles/TileService.swift"]
        var found: [String] = []
        for file in try Self.sources("GeoserveApp") where belowHTTP.contains(where: { file.path.hasPrefix("Sources/GeoserveApp/" + $0) }) {
            for line in Self.code(file.lines) {
                if line.text.hasPrefix("import "), Self.httpModules.contains(line.text.dropFirst("import ".count).trimmingCharacters(in: .whitespaces)) {
                    found.append("\(file.path):\(line.number): \(line.text)")
                }
                if line.text.contains("APIError") { found.append("\(file.path):\(line.number): APIError") }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("inside the app library the data flows down: the file readers and the store's helpers name nothing above them, notifications nothing of the HTTP app")
    func foldersPointDown() throws {
        let files = try Self.sources("GeoserveApp")
        let declaration = try Regex(#"^(?:package |public |private |fileprivate |final )*(?:struct|class|enum|actor|protocol|func)\s+(\w+)"#)
        func folder(_ path: String) -> String {
            String(path.dropFirst("Sources/GeoserveApp/".count).split(separator: "/").first ?? "")
        }
        var declaredIn: [String: String] = [:]
        for file in files {
            for line in file.lines {
                if let match = try declaration.firstMatch(in: String(line)), let name = match.output[1].substring {
                    if declaredIn[String(name)] == nil { declaredIn[String(name)] = folder(file.path) }
                }
            }
        }
        // Each folder may name only the folders listed for it (and itself).
        let allowed: [String: Set<String>] = [
            "Support": [],
            "Input": ["Support"],
            "Store": ["Support"],
            "Notifications": ["Support", "Store", "Operations"],
        ]
        #expect(declaredIn.count > 150)
        var found: [String] = []
        for file in files {
            let here = folder(file.path)
            guard let may = allowed[here] else { continue }
            for line in Self.code(file.lines) {
                let words = Set(line.text.split { !$0.isLetter && !$0.isNumber && $0 != "_" }.map(String.init))
                for word in words {
                    if let there = declaredIn[word], there != here, !may.contains(there) { found.append("\(file.path):\(line.number): \(word) from \(there)/") }
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
