import Testing
import Aggregation

@Suite("area count table")
struct AreaCountTableTests {
    @Test("CSV has a header, every area with zeros, and the unassigned row, CRLF ended")
    func csv() {
        let t = AreaCountTable(areaIDs: ["H01", "H02", "H03"], counts: [4, 0, 12], unassigned: 7)
        #expect(t.csv == "area_id,count\r\nH01,4\r\nH02,0\r\nH03,12\r\nunassigned,7\r\n")
        #expect(t.total == 23)
    }

    @Test("ids with commas or quotes are quoted per RFC 4180")
    func quoting() {
        let t = AreaCountTable(areaIDs: ["a,b", "say \"hi\""], counts: [1, 2], unassigned: 0)
        #expect(t.csv == "area_id,count\r\n\"a,b\",1\r\n\"say \"\"hi\"\"\",2\r\nunassigned,0\r\n")
    }
}
