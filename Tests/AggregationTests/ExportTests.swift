import Aggregation
import DomainKernel
import Testing

@Suite("researcher exports")
struct ExportTests {
    private func key(_ area: String, _ iso: String, status: ReportStatus = .verified, layer: String = "halls",
                     kind: ReportKind = .covid, basis: TimeBasis = .occurred) -> CounterKey {
        CounterKey(layer: layer, areaID: area, kind: kind, status: status, basis: basis, day: Day(iso: iso)!, group: .student)
    }

    private var counters: [(CounterKey, Int)] {
        [(key("H1", "2024-03-04"), 12), (key("H1", "2024-03-06"), 1), (key("H2", "2024-03-12"), 3),
         (key("H1", "2024-03-05", status: .pending), 5), (key("H1", "2024-03-05", layer: "zones"), 40),
         (key("H1", "2024-03-18"), 50), (key("H3", "2024-02-10"), 11), (key("H3", "2024-02-29"), 2),
         // Another kind and another time basis: in every table's range, and filtered out.
         (key("H2", "2024-03-05", kind: .misconduct), 20), (key("H3", "2024-03-12", basis: .submitted), 30)]
    }

    private func table(_ bucket: Bucket, from: String, to: String) -> ExportTable {
        Export.table(ExportRequest(layer: "halls", kind: .covid, basis: .occurred, from: Day(iso: from)!, to: Day(iso: to)!, bucket: bucket),
                     areaIDs: ["H2", "H1", "H3"], counters: counters, denominators: ["H1": 200], control: DisclosureControl())
    }

    @Test("area ids that start like a spreadsheet formula open as text, not formulas")
    func formulaInjection() {
        let ids = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1", "-2", "@SUM(A1)", "\tTAB", "H1"]
        let t = Export.table(ExportRequest(layer: "halls", kind: .covid, basis: .occurred, from: Day(iso: "2024-03-04")!, to: Day(iso: "2024-03-04")!,
                                           bucket: .day),
                             areaIDs: ids, counters: [], denominators: [:], control: DisclosureControl())
        let cells = t.csv().split(separator: "\r\n").dropFirst().map { line in
            line.hasPrefix("\"") ? String(line.dropFirst().prefix { $0 != "\"" }) : String(line.prefix { $0 != "," })
        }
        #expect(cells.count == ids.count)
        for cell in cells where cell != "H1" {
            #expect(cell.hasPrefix("'"), "\(cell) would be read as a formula")
        }
        #expect(cells.contains("H1"))
    }

    @Test("weekly buckets start on Monday; zeros shown; 1–10 suppressed with its rate")
    func weekly() {
        let t = table(.week, from: "2024-03-06", to: "2024-03-13")
        #expect(t.threshold == 11)
        #expect(t.csv() == """
            area_id,bucket_start,bucket_end,verified,rate_per_1000,suppressed\r
            H1,2024-03-04,2024-03-10,13,65.000,false\r
            H1,2024-03-11,2024-03-17,0,0.000,false\r
            H2,2024-03-04,2024-03-10,0,,false\r
            H2,2024-03-11,2024-03-17,,,true\r
            H3,2024-03-04,2024-03-10,0,,false\r
            H3,2024-03-11,2024-03-17,0,,false\r

            """)
    }

    @Test("monthly buckets end on the last day of the month, leap February included")
    func monthly() {
        let t = table(.month, from: "2024-02-15", to: "2024-03-02")
        #expect(t.csv() == """
            area_id,bucket_start,bucket_end,verified,rate_per_1000,suppressed\r
            H1,2024-02-01,2024-02-29,0,0.000,false\r
            H1,2024-03-01,2024-03-31,63,315.000,false\r
            H2,2024-02-01,2024-02-29,0,,false\r
            H2,2024-03-01,2024-03-31,,,true\r
            H3,2024-02-01,2024-02-29,13,,false\r
            H3,2024-03-01,2024-03-31,0,,false\r

            """)
    }

    @Test("daily buckets: one row per area and day, in area then day order")
    func daily() {
        let t = table(.day, from: "2024-03-04", to: "2024-03-06")
        #expect(t.rows.count == 9)
        #expect(t.rows.map(\.areaID) == ["H1", "H1", "H1", "H2", "H2", "H2", "H3", "H3", "H3"])
        #expect(t.rows.prefix(3).map(\.verified) == [.value(12), .value(0), .suppressed])
        #expect(t.rows[2].ratePer1000 == .suppressed)
        #expect(t.rows[0].bucketStart == t.rows[0].bucketEnd)
        #expect(t.rows[4].areaID == "H2" && t.rows[4].bucketStart == Day(iso: "2024-03-05")! && t.rows[4].verified == .value(0),
                "another kind is not counted")
    }
}
