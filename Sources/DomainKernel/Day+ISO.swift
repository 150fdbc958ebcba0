import Foundation

/// Text and clock conversions: the ISO form used in JSON and CSV, and the local day of an instant.
extension Day: CustomStringConvertible, Codable {
    /// `YYYY-MM-DD`, zero padded (years 0–9999).
    public var iso: String {
        let f = fields
        guard (0...9999).contains(f.year) else {
            func pad(_ n: Int, _ width: Int) -> String {
                let s = String(n)
                return String(repeating: "0", count: max(0, width - s.count)) + s
            }
            return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2))"
        }
        // Written into the string's own storage: every stored report and counter cell is keyed by it.
        return String(unsafeUninitializedCapacity: 10) { out in
            func digits(_ n: Int, _ at: Int, _ width: Int) {
                var n = n
                for i in stride(from: at + width - 1, through: at, by: -1) {
                    out[i] = UInt8(ascii: "0") + UInt8(n % 10)
                    n /= 10
                }
            }
            digits(f.year, 0, 4)
            out[4] = UInt8(ascii: "-")
            digits(f.month, 5, 2)
            out[7] = UInt8(ascii: "-")
            digits(f.day, 8, 2)
            return 10
        }
    }

    public var description: String { iso }

    /// The local calendar day of `date` in `zone`: the zone's UTC offset at that instant (so
    /// daylight-saving time counts) is added before cutting the timeline into days.
    public static func containing(_ date: Date, in zone: TimeZone) -> Day {
        let local = date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))
        return Day(ordinal: Int((local / 86_400).rounded(.down)))
    }

    /// Decodes from a strict `YYYY-MM-DD` string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = Day(iso: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a date as YYYY-MM-DD")
        }
        self = day
    }

    /// Encodes as `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }
}
