import Support

/// JSON text for hand-assembled responses, where a `JSONEncoder` per fragment would cost more
/// than the rest of the response: `JSONBuffer`'s literals as strings, to splice into templates.
enum JSONText {
    /// A JSON string literal (RFC 8259 §7 escaping).
    static func string(_ s: String) -> String {
        var out = JSONBuffer(capacity: s.utf8.count + 2)
        out.string(s)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// A JSON number for a finite double, shortest form that reads back the same.
    static func number(_ d: Double) -> String {
        JSONBuffer.numberText(d)
    }
}
