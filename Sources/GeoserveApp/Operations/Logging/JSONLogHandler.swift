import Foundation
import Logging

/// One JSON object per line on standard error, for a log pipeline (journald, Loki, Elastic):
/// `time` (UTC, milliseconds), `level`, `logger`, `message`, then the metadata as members.
///
/// Lines go through a `LogSink`, which writes them in batches (warnings and above at once).
/// Values are the metadata the service chose to log: it never logs report content, personal data,
/// secrets or request bodies (see the request log).
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    let sink: LogSink

    init(label: String, sink: LogSink = .standardError, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.sink = sink
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = Self.line(time: Date(), level: event.level, label: label, message: event.message.description,
                             metadata: merged(event.metadata))
        line.append(UInt8(ascii: "\n"))
        sink.append(line, urgent: event.level >= .warning)
    }

    private func merged(_ explicit: Logger.Metadata?) -> Logger.Metadata {
        if metadataProvider == nil, let explicit, metadata.isEmpty { return explicit }
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let explicit { all.merge(explicit) { _, new in new } }
        return all
    }

    /// The encoded line, without its newline. Keys are sorted after the fixed four, so equal
    /// events give equal lines.
    static func line(time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + message.utf8.count)
        out.append(contentsOf: #"{"time":""#.utf8)
        appendTimestamp(time, to: &out)
        out.append(contentsOf: #"","level":""#.utf8)
        out.append(contentsOf: level.rawValue.utf8)
        out.append(contentsOf: #"","logger":"#.utf8)
        appendString(label, to: &out)
        out.append(contentsOf: #","message":"#.utf8)
        appendString(message, to: &out)
        // Hummingbird names its request id hb.request.id; pipelines expect one name.
        for (name, key) in metadata.keys.map({ ($0 == "hb.request.id" ? "request_id" : $0, $0) }).sorted(by: { $0.0 < $1.0 }) {
            out.append(UInt8(ascii: ","))
            appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            appendValue(metadata[key]!, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    private static func appendValue(_ value: Logger.Metadata.Value, to out: inout [UInt8]) {
        switch value {
        case .string(let s): appendString(s, to: &out)
        case .stringConvertible(let c):
            // Numbers as JSON numbers, so a log pipeline compares and sums them without parsing.
            if c is any BinaryInteger || c is LogDecimal || c is Bool || (c as? Double)?.isFinite == true {
                out.append(contentsOf: c.description.utf8)
            } else {
                appendString(c.description, to: &out)
            }
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendValue(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let members):
            out.append(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                appendValue(members[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped (RFC 8259 §7).
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `2026-11-23T22:13:39.123Z`, without a formatter: this runs for every log line.
    static func appendTimestamp(_ date: Date, to out: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let millis = Int((interval - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ v: Int32) { out.append(UInt8(48 + v / 10)); out.append(UInt8(48 + v % 10)) }
        let year = Int(parts.tm_year) + 1900
        out.append(contentsOf: String(year).utf8)
        out.append(UInt8(ascii: "-")); two(parts.tm_mon + 1)
        out.append(UInt8(ascii: "-")); two(parts.tm_mday)
        out.append(UInt8(ascii: "T")); two(parts.tm_hour)
        out.append(UInt8(ascii: ":")); two(parts.tm_min)
        out.append(UInt8(ascii: ":")); two(parts.tm_sec)
        out.append(UInt8(ascii: "."))
        out.append(UInt8(48 + millis / 100)); out.append(UInt8(48 + millis / 10 % 10)); out.append(UInt8(48 + millis % 10))
        out.append(UInt8(ascii: "Z"))
    }
}
