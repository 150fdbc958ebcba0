import DomainKernel
import Foundation
@testable import ReportVerification
import Support
import Testing

@Suite("RFC 3339 fast path")
struct RFC3339Tests {
    static let zones = ["UTC", "America/Chicago", "Europe/London", "Asia/Kolkata", "Pacific/Chatham", "America/St_Johns", "Australia/Lord_Howe"]
        .map { TimeZone(identifier: $0)! }

    @Test("reading and writing agree with Foundation's ISO 8601 styles on random instants, offsets, fractions and zones")
    func agreesWithFoundation() throws {
        var g = SeededRandom(seed: 3339)
        for _ in 0..<3_000 {
            let instant = Date(timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &g)))
            let sent = TimeZone(secondsFromGMT: Int.random(in: -14...14, using: &g) * 3600 + [0, 1800, 2700].randomElement(using: &g)!)!
            var text = instant.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: sent))
            if Bool.random(using: &g) {
                // After the seconds, before the offset.
                text.insert(contentsOf: "." + String(Int.random(in: 0...999, using: &g)), at: text.index(text.startIndex, offsetBy: 19))
            }
            let reference = try (try? Date(text, strategy: .iso8601)) ?? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            let parsed = try #require(RFC3339.parse(text), "\(text)")
            #expect(abs(parsed.timeIntervalSince(reference)) < 0.001, "\(text)")
            let zone = Self.zones.randomElement(using: &g)!
            let offset = zone.secondsFromGMT(for: parsed)
            if offset % 60 == 0 {
                #expect(RFC3339.format(parsed, offsetSeconds: offset) == DraftValidator.foundationInstant(reference, in: zone), "\(text) in \(zone.identifier)")
            } else {
                #expect(RFC3339.format(parsed, offsetSeconds: offset) == nil)
            }
        }
    }

    @Test("days that do not exist, out-of-range fields and other spellings are left to the slow path", arguments: [
        "2026-02-29T10:00:00Z", "2024-02-30T10:00:00Z", "2026-04-31T10:00:00Z", "2026-13-01T10:00:00Z", "2026-11-02T24:00:00Z",
        "2026-11-02T23:60:00Z", "2026-11-02T23:59:60Z", "2026-11-02 21:30:00Z", "2026-11-02T21:30:00", "2026-11-02T21:30:00z",
        "2026-11-02T21:30:00+0100", "2026-11-02T21:30:00+15:00", "2026-11-02T21:30:00.Z", "20261102T213000Z", "0999-01-01T00:00:00Z",
        "2026-11-02T21:30:00Zx", "+2026-11-02T21:30:00Z",
    ])
    func refused(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test("leap days and century years read as the calendar has them")
    func leapDays() throws {
        for text in ["2024-02-29T12:00:00Z", "2000-02-29T12:00:00Z"] {
            #expect(try RFC3339.parse(text) == Date(text, strategy: .iso8601))
        }
        #expect(RFC3339.parse("2100-02-29T12:00:00Z") == nil)
        // Instants on every 97th day from 1900 to 9999 read back on the calendar day they name.
        for days in stride(from: -25_567, through: 2_932_896, by: 97) {
            let (y, m, d) = Day(ordinal: days).fields
            let text = String(format: "%04d-%02d-%02dT00:00:00Z", y, m, d)
            #expect(RFC3339.parse(text)?.timeIntervalSince1970 == Double(days) * 86_400)
        }
    }
}
