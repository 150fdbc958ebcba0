import DomainKernel
import Foundation
@testable import GeoCore
import Support
import Testing

@Suite("Saved area indexes")
struct AreaIndexFilesTests {
    /// A folder of its own per test, removed at the end.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoserve-index-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
        var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
        func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    }

    /// Random points over and around the layer, every vertex and hole centre, and points
    /// outside the grid or not finite.
    static func probes(_ layer: WarpedGridLayer, seed: UInt64) -> [Double] {
        var rng = SeededRandom(seed: seed)
        var xy: [Double] = []
        for _ in 0..<20_000 {
            xy.append(Double.random(in: (layer.box.west - 0.05)...(layer.box.east + 0.05), using: &rng))
            xy.append(Double.random(in: (layer.box.south - 0.05)...(layer.box.north + 0.05), using: &rng))
        }
        for (x, y) in layer.vertices + layer.holeCentres { xy.append(x); xy.append(y) }
        xy.append(contentsOf: [.nan, 0, .infinity, -.infinity, -180, -90])
        return xy
    }

    /// Answers as ids, so that indexes are compared by what they say, not by ordinals alone.
    static func answers(_ index: AreaIndex, _ xy: [Double]) -> [String?] {
        xy.withUnsafeBufferPointer { index.assign($0, threads: 2) }.map { $0 < 0 ? nil : index.areas[Int($0)].id }
    }

    static func samePoints(_ a: [Position?], _ b: [Position?]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0?.lon == $1?.lon && $0?.lat == $1?.lat }
    }

    @Test("a start with a saved index gives the same assignments and interior points as a rebuilt one, from a mapped file")
    func savedEqualsRebuilt() throws {
        let layer = WarpedGridLayer(n: 24, seed: 5)
        let folder = Folder()
        let files = AreaIndexFiles(directory: folder.url, minimumGridBytes: 0)
        let rebuilt = AreaIndex(areas: layer.areas)
        let rebuiltPoints = IndexedArea.interiorPoints(of: rebuilt.areas)
        let xy = Self.probes(layer, seed: 17)
        let expected = Self.answers(rebuilt, xy)
        #expect(expected.contains(nil) && Set(expected.compactMap { $0 }).count > layer.areas.count / 2, "the probes reach most areas and miss some")

        let first = files.prepare(layer: "cells", version: 3, areas: layer.areas.reversed())
        #expect(first.source == .saved)
        #expect(first.problem == nil)
        #expect(folder.files.count == 1 && folder.files[0].hasPrefix("cells.v3.") && folder.files[0].hasSuffix(".areaindex"))
        #expect(first.index.grid.tables.isMapped, "the built tables are replaced by the saved file's")

        let second = files.prepare(layer: "cells", version: 3, areas: layer.areas)
        #expect(second.source == .loaded)
        #expect(second.problem == nil)
        #expect(second.index.grid.tables.isMapped)
        for index in [first.index, second.index] {
            #expect(index.areas.map(\.id) == rebuilt.areas.map(\.id))
            #expect(index.boundingBox == rebuilt.boundingBox)
            #expect(Self.answers(index, xy) == expected)
            let single = (0..<(xy.count / 2)).map { index.locate(lon: xy[2 * $0], lat: xy[2 * $0 + 1]).map { index.areas[$0].id } }
            #expect(single == expected)
            let counts = xy.withUnsafeBufferPointer { index.count($0, threads: 3) }
            #expect(counts == xy.withUnsafeBufferPointer { rebuilt.count($0, threads: 1) })
        }
        #expect(Self.samePoints(first.interiorPoints, rebuiltPoints))
        #expect(Self.samePoints(second.interiorPoints, rebuiltPoints))
        #expect(rebuiltPoints.allSatisfy { $0 != nil })
    }

    @Test("a damaged, truncated or foreign file is refused with its reason, removed, and the index built and saved again")
    func damagedFilesAreRebuilt() throws {
        let layer = WarpedGridLayer(n: 12, seed: 8)
        let folder = Folder()
        let files = AreaIndexFiles(directory: folder.url, minimumGridBytes: 0)
        let xy = Self.probes(layer, seed: 4)
        let expected = Self.answers(AreaIndex(areas: layer.areas), xy)
        #expect(files.prepare(layer: "cells", version: 1, areas: layer.areas).source == .saved)
        let url = folder.file(folder.files[0])
        let good = try Data(contentsOf: url)

        var flipped = good
        flipped[good.count - 100] ^= 0x10
        var foreign = good
        foreign[3 * 8] = 99 // the groups' stride
        var otherFormat = good
        otherFormat[8] = 7
        let cases: [(String, Data)] = [
            ("does not match its digest", flipped),
            ("truncated", good.prefix(good.count - 8)),
            ("shorter than its header", good.prefix(40)),
            ("another kind", foreign),
            ("has format 7", otherFormat),
            ("is not an area index file", Data(repeating: 0, count: good.count)),
            ("the file is empty", Data()),
        ]
        for (reason, bytes) in cases {
            try bytes.write(to: url)
            let prepared = files.prepare(layer: "cells", version: 1, areas: layer.areas)
            #expect(prepared.source == .saved, "\(reason)")
            #expect(prepared.problem?.contains(reason) == true, "\(reason): \(prepared.problem ?? "no problem")")
            #expect(Self.answers(prepared.index, xy) == expected, "\(reason)")
            #expect(try Data(contentsOf: url) == good, "\(reason): saved again, whole")
            #expect(files.prepare(layer: "cells", version: 1, areas: layer.areas).source == .loaded)
        }
    }

    @Test("changed areas under the same layer version get a file of their own, and the old one goes")
    func changedAreasAreNotServedAStaleIndex() throws {
        let layer = WarpedGridLayer(n: 12, seed: 8)
        let folder = Folder()
        let files = AreaIndexFiles(directory: folder.url, minimumGridBytes: 0)
        _ = files.prepare(layer: "cells", version: 1, areas: layer.areas)
        _ = files.prepare(layer: "other", version: 1, areas: layer.areas)
        let before = folder.files
        // One area loses its last part: same ids, same version number, other content.
        var changed = layer.areas
        let k = changed.firstIndex { $0.polygons.count > 1 }!
        changed[k] = IndexedArea(id: changed[k].id, polygons: [changed[k].polygons[0]])
        let prepared = files.prepare(layer: "cells", version: 1, areas: changed)
        #expect(prepared.source == .saved)
        #expect(folder.files.count == 2)
        #expect(!folder.files.contains(before.first { $0.hasPrefix("cells.") }!), "the stale file is removed")
        #expect(folder.files.contains(before.first { $0.hasPrefix("other.") }!), "another layer's file is kept")
        let xy = Self.probes(layer, seed: 6)
        #expect(Self.answers(prepared.index, xy) == Self.answers(AreaIndex(areas: changed), xy))
        // A later version replaces the file; an older temporary file of a crashed writer goes too.
        let stale = folder.file("cells.v1.0.areaindex.4242.tmp")
        try Data([1, 2, 3]).write(to: stale)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: stale.path)
        let fresh = folder.file("cells.v1.1.areaindex.4243.tmp")
        try Data([1, 2, 3]).write(to: fresh)
        _ = files.prepare(layer: "cells", version: 2, areas: changed)
        #expect(folder.files.filter { $0.hasPrefix("cells.") } == ["cells.v1.1.areaindex.4243.tmp", folder.files.first { $0.hasPrefix("cells.v2.") }!],
                "a temporary file younger than an hour may be another process's, and stays")
    }

    @Test("a folder that cannot be written costs a build, says why, and answers the same")
    func unwritableFolder() throws {
        let layer = WarpedGridLayer(n: 8, seed: 2)
        let folder = Folder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let blocker = folder.file("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let prepared = AreaIndexFiles(directory: blocker, minimumGridBytes: 0).prepare(layer: "cells", version: 1, areas: layer.areas)
        #expect(prepared.source == .built)
        #expect(prepared.problem != nil)
        #expect(!prepared.index.grid.tables.isMapped)
        let xy = Self.probes(layer, seed: 3)
        #expect(Self.answers(prepared.index, xy) == Self.answers(AreaIndex(areas: layer.areas), xy))
        #expect(try Data(contentsOf: blocker) == Data("x".utf8), "nothing written over the file in the way")
    }

    @Test("a small layer is built at every start and saves no file")
    func smallLayersAreNotSaved() {
        let layer = WarpedGridLayer(n: 8, seed: 2)
        let folder = Folder()
        let prepared = AreaIndexFiles(directory: folder.url).prepare(layer: "halls", version: 1, areas: layer.areas)
        #expect(prepared.source == .built)
        #expect(prepared.problem == nil)
        #expect(folder.files.isEmpty)
        #expect(prepared.index.grid.byteCount < 4 << 20)
    }

    @Test("the content key changes with any id or coordinate and not with the input order")
    func contentKey() {
        let layer = WarpedGridLayer(n: 6, seed: 1)
        func key(_ areas: [IndexedArea]) -> String {
            AreaIndex.contentKey(ofSorted: AreaIndex.inIndexOrder(areas), cellsPerSegment: 2).hex
        }
        let base = key(layer.areas)
        #expect(key(layer.areas.reversed()) == base)
        var renamed = layer.areas
        renamed[0] = IndexedArea(id: renamed[0].id + "x", polygons: renamed[0].polygons)
        #expect(key(renamed) != base)
        var moved = layer.areas
        let p = moved[1].polygons[0]
        var ring = p.exterior
        ring[1] = pos(ring[1].lon.nextUp, ring[1].lat)
        moved[1] = IndexedArea(id: moved[1].id, polygons: [try! Polygon(rings: [ring] + Array(p.rings.dropFirst()))] + moved[1].polygons.dropFirst())
        #expect(key(moved) != base)
        #expect(AreaIndex.contentKey(ofSorted: AreaIndex.inIndexOrder(layer.areas), cellsPerSegment: 3).hex != base)
        #expect(base.count == 32)
    }
}
