import Foundation
import GeoCore
import Testing
@testable import geoserve

@Suite("layer files read through a memory map")
struct MappedFileTests {
    @Test("a mapped layer file reads as its bytes do, with its pages handed back as it goes; an empty file maps empty, a folder not at all")
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

        let mapped = try #require(MappedFile(path: path.path))
        #expect(mapped.data == bytes)
        mapped.releasePages()
        #expect(mapped.data == bytes, "readable after its pages were handed back")

        let file = try AreaFile.read(path: path.path, idField: "code", nameField: nil, showProgress: false)
        let direct = try LayerReader(idField: "code").read(bytes)
        #expect(file.result.features.count == 9_000)
        #expect(file.result.features == direct.features && file.result.report == direct.report)

        let empty = folder.appendingPathComponent("empty.geojson")
        try write("", to: empty)
        #expect(MappedFile(path: empty.path)?.data.isEmpty == true)
        #expect(MappedFile(path: folder.path) == nil)
        #expect(MappedFile(path: folder.appendingPathComponent("missing.geojson").path) == nil)
        #expect(throws: AreaFileProblem.self) { try AreaFile.read(path: empty.path, idField: nil, nameField: nil, showProgress: false) }
    }
}
