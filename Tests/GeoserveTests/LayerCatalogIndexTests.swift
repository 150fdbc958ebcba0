import GeoCore
import DomainKernel
import Foundation
import Logging
import Storage
import Testing
@testable import GeoserveApp

@Suite("layer catalog with saved indexes")
struct LayerCatalogIndexTests {
    @Test("a catalog loaded from saved indexes places every point and anchors every area as one that built them")
    func loadedCatalogAnswersAsBuilt() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await openKeyedStore(try testDatabase(in: folder))
        try await DemoData.importIfEmpty(into: store, from: repositoryRoot.appendingPathComponent("data").path, logger: Logger(label: "test"))
        let files = AreaIndexFiles(directory: folder.appendingPathComponent("index-cache"), minimumGridBytes: 0)
        var catalogs: [[String: PublishedLayer]] = []
        for indexFiles in [nil, files, files] {
            let catalog = LayerCatalog(indexFiles: indexFiles)
            try await catalog.refresh(from: store)
            catalogs.append(catalog.snapshot())
        }
        let (built, saved, loaded) = (catalogs[0], catalogs[1], catalogs[2])
        let areaLayers = built.values.filter { $0.areaIndex != nil }.map(\.info.layer).sorted()
        #expect(areaLayers.count >= 2, "the demo campus has hall and area layers")
        let names = try FileManager.default.contentsOfDirectory(atPath: files.directory.path).sorted()
        #expect(names.map { String($0.prefix { $0 != "." }) } == areaLayers, "one file per area layer")
        var rng = SystemRandomNumberGenerator()
        for name in areaLayers {
            #expect(built[name]?.indexSource == .built)
            #expect(saved[name]?.indexSource == .saved)
            #expect(loaded[name]?.indexSource == .loaded)
            #expect(loaded[name]?.indexProblem == nil)
            let reference = built[name]!.areaIndex!
            let box = try #require(reference.boundingBox)
            var probes = (0..<5_000).map { _ in
                (Double.random(in: box.west...box.east, using: &rng), Double.random(in: box.south...box.north, using: &rng))
            }
            probes += reference.areas.flatMap { $0.polygons.flatMap { $0.exterior.map { ($0.lon, $0.lat) } } }
            for layer in [saved[name]!, loaded[name]!] {
                let index = layer.areaIndex!
                #expect(probes.allSatisfy { index.locate(lon: $0.0, lat: $0.1) == reference.locate(lon: $0.0, lat: $0.1) }, "\(name)")
                for area in reference.areas {
                    #expect(layer.interiorPoint(of: area.id) == built[name]!.interiorPoint(of: area.id), "\(name) \(area.id)")
                }
            }
        }
    }
}
