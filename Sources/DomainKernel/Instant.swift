import Foundation

/// A moment as it was written: the instant and the offset from UTC it was written at. A report's
/// time keeps the campus zone's offset, so its civil day — the day it is counted on — is exact
/// arithmetic, and the text reads back as it was stored. Kept to the second, as it is written.
public struct Instant: Hashable, Sendable {
    /// The moment itself, to the second (a fraction is dropped).
    public let date: Date
    /// Seconds east of UTC the moment is written at.
    public let offsetSeconds: Int

    public init(date: Date, offsetSeconds: Int = 0) {
        self.date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        self.offsetSeconds = offsetSeconds
    }

    /// Why a text is not a date-time.
    public struct Unreadable: Error, Hashable, Sendable, CustomStringConvertible {
        public let text: String
        public init(text: String) { self.text = text }
        public var description: String { "\"\(text)\" is not an ISO 8601 date-time with a zone, such as 2026-11-20T21:15:00Z" }
    }

    /// The one reader of date-times from outside: strict RFC 3339 by arithmetic (what clients and
    /// the store write), then Foundation's ISO 8601 forms with and without a fraction. Bad input
    /// is an error, never a default date.
    public static func parse(_ text: String) throws(Unreadable) -> Instant {
        if let strict = RFC3339.parseWithOffset(text) { return Instant(date: strict.date, offsetSeconds: strict.offsetSeconds) }
        // Foundation rolls a day that does not exist over into the next month (February 30th
        // reads as March 2nd): the calendar date is checked first.
        if text.utf8.count >= 10, Day(iso: String(text.prefix(10))) != nil,
           let date = (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) {
            return Instant(date: date)
        }
        throw Unreadable(text: text)
    }

    /// The same moment written at another offset (a report's time at the campus zone's).
    public func at(offsetSeconds: Int) -> Instant { Instant(date: date, offsetSeconds: offsetSeconds) }

    /// The same moment written at a zone's offset for it.
    public func `in`(_ zone: TimeZone) -> Instant { at(offsetSeconds: zone.secondsFromGMT(for: date)) }

    /// RFC 3339 to the second at the offset (`Z` for zero); an offset that is not whole minutes
    /// (local mean time before zones) is written as UTC, which RFC 3339 can say.
    public var text: String {
        RFC3339.format(date, offsetSeconds: offsetSeconds) ?? RFC3339.format(date, offsetSeconds: 0)!
    }

    /// The civil day at the offset.
    public var day: Day {
        let whole = Int(date.timeIntervalSince1970) + (offsetSeconds % 60 == 0 ? offsetSeconds : 0)
        return Day(ordinal: whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400)
    }
}

extension Instant: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try Instant.parse(text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}

/// An instant written as a literal, `"2026-11-20T21:15:00-06:00"`: for fixed times in code and
/// tests. A literal that is not a date-time is a programming error and stops the program.
extension Instant: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        do { self = try Instant.parse(value) } catch { preconditionFailure(error.description) }
    }
}
