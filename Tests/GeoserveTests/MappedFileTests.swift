import GeoCore
import Foundation
import Support
import Testing
@testable import GeoserveApp

@Suite("layer files read through a memory map")
struct MappedFileTests {
    @Test("a mapped layer file reads as its bytes do, with its pages handed back as it goes; an empty file, a folder and a missing file are not mapped (and read whole instead)")
    func mappedReadsAlike() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var features: [String] = []
        for i in 0..<9_000 {
            let x = Double(i % 100), y = Double(i / 100)
            features.append(#"{"type":"Feature","properties":{"code":"q\#(i)","name":"Square \#(i)"},"geometry":{"type":"Polygon","coordinates":[[[\#(x),\#(y)],[\#(x + 1),\#(y)],[\#(x + 1),\#(y + 1)],[\#(x),\#(y + 1)],[\#(x),\#(y)]]]}}"#)
        }
        let path = folder.appendingPathComponent("squares.geojson")
        try write(#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}", to: path)
        let bytes = try Data(contentsOf: path)

        let mapped = try MappedFile(url: path)
        #expect(mapped.data == bytes)
        // Read whole, the map's pages are resident; handed back, they are not, and reading
        // brings them back.
        let start = mapped.data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        let fileKB = bytes.count / 1024
        #expect(try Self.residentKB(mappingAt: start) >= fileKB * 9 / 10)
        mapped.releasePages()
        #expect(try Self.residentKB(mappingAt: start) <= 8, "pages handed back")
        #expect(mapped.data == bytes, "readable after its pages were handed back")
        #expect(try Self.residentKB(mappingAt: start) >= fileKB * 9 / 10)

        let file = try AreaFile.read(path: path.path, idField: "code", nameField: nil, showProgress: false)
        let direct = try LayerReader(idField: "code").read(bytes)
        #expect(file.result.features.count == 9_000)
        #expect(file.result.features == direct.features && file.result.report == direct.report)

        let empty = folder.appendingPathComponent("empty.geojson")
        try write("", to: empty)
        #expect(throws: MappedFileError.self) { try MappedFile(url: empty) }
        #expect(throws: MappedFileError.self) { try MappedFile(url: folder) }
        #expect(throws: MappedFileError.self) { try MappedFile(url: folder.appendingPathComponent("missing.geojson")) }
        #expect(throws: AreaFileProblem.self) { try AreaFile.read(path: empty.path, idField: nil, nameField: nil, showProgress: false) }
    }

    /// The resident kilobytes of this process's mapping that starts at `start` (/proc/self/smaps).
    static func residentKB(mappingAt start: UInt) throws -> Int {
        // Read to its end: /proc files report no size, and a read by size stops short.
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps"))
        defer { try? file.close() }
        let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        let header = String(start, radix: 16) + "-"
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            // A mapping's first line begins with its address range; its fields follow as "Key: value".
            let first = line.prefix { $0 != " " }
            if first.contains("-"), !first.hasSuffix(":") {
                inMapping = first.hasPrefix(header)
            } else if inMapping, first == "Rss:" {
                return Int(line.split(separator: " ")[1]) ?? -1
            }
        }
        throw MappingNotFound()
    }

    struct MappingNotFound: Error {}
}
