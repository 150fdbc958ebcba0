import Foundation
import Logging

/// The one line a request logs, in the JSON log's shape (the same members, in the same order, as
/// `JSONLogHandler` writes for the same event), encoded without a metadata dictionary.
struct RequestLine {
    let id: String
    let method: String
    let route: String
    let status: Int
    let micros: Int64
    let account: String?

    func json(level: Logger.Level, label: String, time: Date = Date()) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(contentsOf: #"{"time":""#.utf8)
        JSONLogHandler.appendTimestamp(time, to: &out)
        out.append(contentsOf: #"","level":""#.utf8)
        out.append(contentsOf: level.rawValue.utf8)
        out.append(contentsOf: #"","logger":"#.utf8)
        JSONLogHandler.appendString(label, to: &out)
        out.append(contentsOf: #","message":"request""#.utf8)
        // Sorted as JSONLogHandler sorts metadata keys.
        if let account {
            out.append(contentsOf: #","account":"#.utf8)
            JSONLogHandler.appendString(account, to: &out)
        }
        out.append(contentsOf: #","duration_ms":"#.utf8)
        Self.appendMilliseconds(micros, to: &out)
        out.append(contentsOf: #","method":"#.utf8)
        JSONLogHandler.appendString(method, to: &out)
        out.append(contentsOf: #","request_id":"#.utf8)
        JSONLogHandler.appendString(id, to: &out)
        out.append(contentsOf: #","route":"#.utf8)
        JSONLogHandler.appendString(route, to: &out)
        out.append(contentsOf: #","status":"#.utf8)
        Self.appendDecimal(Int64(status), to: &out)
        out.append(contentsOf: #"}"#.utf8)
        return out
    }

    /// `3.26` for 3,260 µs: two decimals without a formatter, which would cost more than the rest
    /// of the line.
    static func appendMilliseconds(_ micros: Int64, to out: inout [UInt8]) {
        let hundredths = (max(0, micros) + 5) / 10
        appendDecimal(hundredths / 100, to: &out)
        out.append(UInt8(ascii: "."))
        out.append(UInt8(48 + hundredths % 100 / 10))
        out.append(UInt8(48 + hundredths % 10))
    }

    /// A whole number's digits: a small String, so no allocation.
    static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        out.append(contentsOf: String(value).utf8)
    }
}
