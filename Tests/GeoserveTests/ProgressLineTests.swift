import Testing
@testable import GeoserveApp

@Suite("progress on standard error")
struct ProgressLineTests {
    @Test("lines come by steps of the total, whatever the unit and however often it is given; the end always shows; small totals show nothing")
    func steps() {
        // An import's bytes read, given once a part of about 860,000 bytes, as for 1,000,000 rows.
        let total = 205_452_608
        let parts = Array(stride(from: 860_001, to: total, by: 860_001)) + [total]
        var log = ProgressLine(label: "read", interactive: false)
        let logged = parts.filter { log.isDue($0, total) }
        #expect(logged.count == 11)  // the first part, each tenth, the end
        #expect(logged.last == total)
        var terminal = ProgressLine(label: "read", interactive: true)
        #expect(parts.filter { terminal.isDue($0, total) }.count == parts.count)  // each part passes a thousandth

        // Tiles, given one by one: a terminal line each thousandth, not each tile.
        var tiles = ProgressLine(label: "tiles", interactive: true)
        #expect((1...50_000).filter { tiles.isDue($0, 50_000) }.count == 1001)  // the first, then each thousandth
        var few = ProgressLine(label: "tiles", interactive: true)
        #expect((1...999).filter { few.isDue($0, 999) }.isEmpty)
    }
}
