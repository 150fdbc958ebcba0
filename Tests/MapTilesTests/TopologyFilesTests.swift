import GeoCore
import DomainKernel
import Foundation
@testable import MapTiles
import Support
import Testing

/// A large layer's border topology is saved beside the area indexes and read back by the next
/// start's first tile: what is read back must be what a build gives, and a file that does not
/// belong to the areas, or is damaged, must cost a build and nothing else.
@Suite("Tile topology files")
struct TopologyFilesTests {
    /// A grid of `n` × `n` boxes sharing their borders, in id order.
    static func layer(_ n: Int, shift: Double = 0) -> [IndexedArea] {
        var areas: [IndexedArea] = []
        for r in 0..<n {
            for c in 0..<n {
                let w = 0.001 * Double(c) + shift, s = 0.001 * Double(r)
                areas.append(Fixtures.box(String(format: "a%05d", r * n + c), w, s, w + 0.001, s + 0.001))
            }
        }
        return areas
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("topology-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func same(_ a: ArcTopology, _ b: ArcTopology) -> Bool {
        a.arcs.points == b.arcs.points && a.arcs.starts == b.arcs.starts && a.uses == b.uses
            && a.ringStarts == b.ringStarts && a.polygonStarts == b.polygonStarts && a.areaStarts == b.areaStarts
    }

    @Test("saved once, then read back equal to a build; a tile layer drawn from it draws the same geometry at every zoom")
    func roundTrip() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = TopologyFiles(directory: dir, minimumAreas: 100)
        let areas = Self.layer(20)
        let first = files.prepare(layer: "cells", version: 3, areas: areas)
        #expect(first.source == .saved && first.problem == nil)
        let file = try #require(first.file)
        #expect(file.lastPathComponent.hasPrefix("cells.v3.") && file.pathExtension == "topology")
        let second = files.prepare(layer: "cells", version: 3, areas: areas)
        #expect(second.source == .loaded && second.file == file)
        let built = TopologyFiles.build(areas)
        #expect(built.source == .built)
        #expect(Self.same(second.topology, built.topology))
        #expect(built.topology.uses.contains { $0.reversed }, "reversed uses are read back as such")

        let fromFile = TileLayer(id: "cells", version: "3", areas: areas, topology: second)
        let fromBuild = TileLayer(id: "cells", version: "3", areas: areas)
        for zoom in [8, 12, 16, 20] { #expect(fromFile.geometry(zoom: zoom) == fromBuild.geometry(zoom: zoom), "zoom \(zoom)") }
        #expect(fromFile.fullPointCount == fromBuild.fullPointCount)
    }

    @Test("a file of other areas, a damaged file or a truncated one is not used: the topology is built again and the file replaced")
    func refusesWhatIsNotItsOwn() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = TopologyFiles(directory: dir, minimumAreas: 100)
        let areas = Self.layer(12)
        let file = try #require(files.prepare(layer: "cells", version: 1, areas: areas).file)
        let good = try Data(contentsOf: file)

        // Other areas under the same key are refused by the key in the header.
        var other = TopologyFiles(directory: dir, minimumAreas: 100).prepare(layer: "cells", version: 1, areas: Self.layer(12, shift: 0.5))
        #expect(other.source == .saved && other.file != file, "other areas are saved under another name")
        let moved = try #require(other.file)
        try FileManager.default.removeItem(at: moved)
        try good.write(to: moved)
        other = files.prepare(layer: "cells", version: 1, areas: Self.layer(12, shift: 0.5))
        #expect(other.source == .saved && other.problem?.contains("other areas") == true)

        // One flipped byte in the tables: the digest refuses it.
        var damaged = good
        damaged[damaged.count - 20] ^= 0x40
        try damaged.write(to: file)
        var again = files.prepare(layer: "cells", version: 1, areas: areas)
        #expect(again.source == .saved && again.problem?.contains("digest") == true)
        #expect(try Data(contentsOf: file) == good, "the damaged file was replaced by a good one")

        // Cut short.
        try good.prefix(good.count - 8).write(to: file)
        again = files.prepare(layer: "cells", version: 1, areas: areas)
        #expect(again.source == .saved && again.problem?.contains("truncated") == true)
        #expect(Self.same(again.topology, TopologyFiles.build(areas).topology))
    }

    @Test("small layers are built each time and write nothing; an area index saved beside a topology leaves it in place, and a new version replaces it")
    func folderRules() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = TopologyFiles(directory: dir, minimumAreas: 100)
        let small = files.prepare(layer: "halls", version: 1, areas: Self.layer(5))
        #expect(small.source == .built && small.file == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)

        let v1 = try #require(files.prepare(layer: "cells", version: 1, areas: Self.layer(12)).file)
        let index = AreaIndexFiles(directory: dir, minimumGridBytes: 0).prepare(layer: "cells", version: 1, areas: Self.layer(12))
        #expect(index.source == .saved)
        #expect(FileManager.default.fileExists(atPath: v1.path), "saving the area index leaves the topology alone")
        let v2 = try #require(files.prepare(layer: "cells", version: 2, areas: Self.layer(13)).file)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(!FileManager.default.fileExists(atPath: v1.path), "the layer's older topology is removed")
        #expect(names.contains(v2.lastPathComponent) && names.contains { $0.hasSuffix(".areaindex") }, "\(names)")
    }
}
