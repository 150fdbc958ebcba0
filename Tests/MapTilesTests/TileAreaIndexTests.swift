import MapTiles
import Testing

@Suite("Tile-to-area index")
struct TileAreaIndexTests {
    @Test("finds exactly the boxes a brute-force scan finds, each once")
    func matchesScan() {
        var rng = SplitMix(seed: 7)
        let boxes = (0..<2000).map { _ -> UnitRect in
            let x = 0.3 + 0.01 * rng.next(), y = 0.4 + 0.01 * rng.next()
            let w = 0.0005 * rng.next() * (rng.next() < 0.05 ? 20 : 1), h = 0.0005 * rng.next()
            return UnitRect(minX: x, minY: y, maxX: x + w, maxY: y + h)
        }
        let index = TileAreaIndex(boxes: boxes)
        for _ in 0..<300 {
            let x = 0.299 + 0.012 * rng.next(), y = 0.399 + 0.012 * rng.next(), s = 0.002 * rng.next()
            let q = UnitRect(minX: x, minY: y, maxX: x + s, maxY: y + s)
            let expected = boxes.indices.filter { boxes[$0].intersects(q) }
            #expect(index.areas(intersecting: q) == expected)
        }
        #expect(index.areas(intersecting: UnitRect(minX: 0.9, minY: 0.9, maxX: 1, maxY: 1)).isEmpty)
        #expect(TileAreaIndex(boxes: []).areas(intersecting: UnitRect(minX: 0, minY: 0, maxX: 1, maxY: 1)).isEmpty)
    }
}

/// A small deterministic generator (SplitMix64) so failures reproduce.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    /// Uniform in [0, 1).
    mutating func next() -> Double {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}
