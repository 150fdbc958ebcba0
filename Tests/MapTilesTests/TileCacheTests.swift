import MapTiles
import Testing

@Suite("Tile cache")
struct TileCacheTests {
    func key(_ x: Int, data: String = "d1", scale: TileScale = .x1) -> TileCacheKey {
        TileCacheKey(layer: "cells", layerVersion: "v1", valuesVersion: data, style: "s", tile: try! TileKey(z: 12, x: x, y: 0), scale: scale)
    }

    @Test("the byte bound holds and the least recently used tiles go first")
    func lru() {
        let cache = TileCache(capacityBytes: 1000)
        for x in 0..<4 { cache.insert([UInt8](repeating: UInt8(x), count: 300), for: key(x)) }
        // 4 × 300 > 1000: tile 0 was evicted.
        #expect(cache.statistics.bytes == 900 && cache.statistics.evictions == 1)
        #expect(cache.tile(for: key(0)) == nil)
        // Touch 1, then add 4: 2 is now the oldest and goes.
        #expect(cache.tile(for: key(1))?.first == 1)
        cache.insert([UInt8](repeating: 4, count: 300), for: key(4))
        #expect(cache.keysByRecency == [key(4), key(1), key(3)])
        #expect(cache.statistics.bytes <= cache.capacityBytes)
        // A large tile pushes out several small ones; one larger than the cache is not kept.
        cache.insert([UInt8](repeating: 5, count: 700), for: key(5))
        #expect(cache.keysByRecency == [key(5), key(4)])
        cache.insert([UInt8](repeating: 6, count: 1001), for: key(6))
        #expect(cache.tile(for: key(6)) == nil)
        let s = cache.statistics
        #expect(s.hits == 1 && s.misses == 2 && s.entries == 2 && s.bytes == 1000 && s.evictions == 4)
    }

    @Test("keys differing only in data version or scale do not collide")
    func versions() {
        let cache = TileCache(capacityBytes: 10_000)
        cache.insert([1], for: key(0, data: "d1"))
        cache.insert([2], for: key(0, data: "d2"))
        cache.insert([3], for: key(0, data: "d1", scale: .x2))
        #expect(cache.tile(for: key(0, data: "d1")) == [1])
        #expect(cache.tile(for: key(0, data: "d2")) == [2])
        #expect(cache.tile(for: key(0, data: "d1", scale: .x2)) == [3])
        #expect(cache.tile(for: key(0, data: "d3")) == nil)
        #expect(key(0, data: "d1").etag == #""cells-v1-d1-s-12-0-0""#)
        #expect(key(0, data: "d1", scale: .x2).etag == #""cells-v1-d1-s-12-0-0@2x""#)
        #expect(key(0, data: "d1").etag != key(0, data: "d2").etag)
    }

    @Test("replacing a key keeps one entry and the right byte count; renders once per miss")
    func replaceAndRender() {
        let cache = TileCache(capacityBytes: 100)
        cache.insert([1, 2, 3], for: key(0))
        cache.insert([1], for: key(0))
        #expect(cache.statistics.entries == 1 && cache.statistics.bytes == 1)
        var renders = 0
        for _ in 0..<3 { _ = cache.tile(for: key(9)) { renders += 1; return [9] } }
        #expect(renders == 1)
        cache.removeAll()
        #expect(cache.statistics.entries == 0 && cache.tile(for: key(0)) == nil)
    }

    @Test("many threads inserting and reading keep the bound")
    func concurrent() async {
        let cache = TileCache(capacityBytes: 5000)
        await withTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for i in 0..<500 {
                        let k = TileCacheKey(layer: "l", layerVersion: "1", valuesVersion: "d", style: "s",
                                             tile: try! TileKey(z: 14, x: (t * 500 + i) % 700, y: 1), scale: .x1)
                        if cache.tile(for: k) == nil { cache.insert([UInt8](repeating: 0, count: 10 + i % 90), for: k) }
                    }
                }
            }
        }
        let s = cache.statistics
        #expect(s.bytes <= 5000 && s.entries == cache.keysByRecency.count)
    }
}
