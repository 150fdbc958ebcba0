import Foundation
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

    @Test("a report file's reader tells how far it is, and at its end that it has read everything")
    func readerProgress() {
        let csv = "id,kind,occurred_on,lon,lat\n" + (0..<200).map { "p\($0),covid,2026-11-01,-87.6,41.79\n" }.joined()
        let size = csv.utf8.count
        var reader = ReportFileReader(data: Data(csv.utf8), geoJSON: false, now: Date(), timeZone: TimeZone(identifier: "UTC")!)
        var log = ProgressLine(label: "read", interactive: false)
        var lines: [Int] = []
        var rows = 0
        while reader.next() != nil {
            rows += 1
            if log.isDue(reader.progress.done, reader.progress.total) { lines.append(reader.progress.done) }
            #expect(reader.progress.total == size)
        }
        #expect(rows == 200)
        // Read to the end, it says so (it said 1 of 1, too small a total for a line).
        #expect(reader.progress == (size, size))
        #expect(lines.count == 11 && lines.last == size)  // the first row, each tenth, the end
    }
}
