/// JSON text written straight into bytes, for hot paths (report intake, its response) where
/// `JSONEncoder`'s reflection costs more than the rest of the request.
///
/// Members come out in the order they are written; callers that need reproducible output
/// write keys sorted. Separators are placed automatically: a value after a key takes none, any
/// other value or key after a value takes a comma.
public struct JSONBuffer: Sendable {
    /// The text so far, UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows a value at the same level and needs a comma.
    private var afterValue = false

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        afterValue = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        afterValue = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        afterValue = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        afterValue = true
    }

    /// A member name; the member's value is written next.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        afterValue = false
    }

    public mutating func string(_ s: String) {
        separate()
        appendString(s)
        afterValue = true
    }

    /// A finite number in the shortest form that reads back as the same `Double`; integral
    /// values without a fraction.
    public mutating func number(_ d: Double) {
        precondition(d.isFinite, "JSON has no NaN or infinity")
        separate()
        bytes.append(contentsOf: Self.numberText(d).utf8)
        afterValue = true
    }

    /// The text `number(_:)` writes for a finite double.
    public static func numberText(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : d.description
    }

    public mutating func int(_ n: Int) {
        separate()
        bytes.append(contentsOf: String(n).utf8)
        afterValue = true
    }

    public mutating func bool(_ b: Bool) {
        separate()
        bytes.append(contentsOf: (b ? "true" : "false").utf8)
        afterValue = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        afterValue = true
    }

    /// A whole value, an object's members in ascending order of their names (the order
    /// `JSONEncoder` writes with `.sortedKeys`).
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(n)
        case .string(let s): string(s)
        case .array(let items):
            beginArray()
            for item in items { value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for name in members.keys.sorted() {
                key(name)
                value(members[name]!)
            }
            endObject()
        }
    }

    /// A member whose value is a string, left out when the value is nil.
    public mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// A member whose value is a number, left out when the value is nil.
    public mutating func member(_ name: String, _ value: Double?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    private mutating func separate() {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
    }

    /// A string literal with RFC 8259 §7 escaping: quote, backslash and control characters;
    /// everything else as UTF-8.
    private mutating func appendString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var start = 0
            for (i, b) in utf8.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[start..<i])
                start = i + 1
                switch b {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(b >> 4)], hex[Int(b & 0x0F)]])
                }
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
