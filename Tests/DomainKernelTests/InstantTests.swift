import DomainKernel
import Foundation
import Testing

@Suite("instants")
struct InstantTests {
    @Test("a time written at an offset keeps it: its day is the day there, and it reads back as written")
    func offsetKept() throws {
        let late = try Instant.parse("2026-11-20T23:30:00-06:00")
        #expect(late.offsetSeconds == -6 * 3600)
        #expect(late.day == "2026-11-20")
        #expect(late.at(offsetSeconds: 0).day == "2026-11-21")
        #expect(late.text == "2026-11-20T23:30:00-06:00")
        #expect(try Instant.parse(late.text) == late)
        let chicago = try #require(TimeZone(identifier: "America/Chicago"))
        #expect(try Instant.parse("2026-11-21T05:30:00Z").in(chicago).text == "2026-11-20T23:30:00-06:00")
    }

    @Test("other ISO 8601 spellings are read by Foundation; anything else is an error, never a default date",
          arguments: ["", "yesterday", "2026-11-20", "2026-13-01T00:00:00Z", "2026-02-30T08:00:00+01:00", "1970-01-01", "2026-11-20 21:15:00"])
    func badInput(text: String) {
        #expect(throws: Instant.Unreadable(text: text)) { try Instant.parse(text) }
    }

    @Test("JSON carries the text; a stored value that is no time fails to decode")
    func coding() throws {
        let instant: Instant = "2026-11-02T21:30:00+01:00"
        let data = try JSONEncoder().encode([instant])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-11-02T21:30:00+01:00"]"#)
        #expect(try JSONDecoder().decode([Instant].self, from: data) == [instant])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Instant].self, from: Data(#"["soon"]"#.utf8)) }
    }
}
