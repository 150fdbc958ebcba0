/// The fields of one row of `COPY … TO STDOUT` in PostgreSQL's text format: separated by tabs,
/// `\N` for NULL, backslash escapes for tabs, line breaks and backslashes within a field.
struct CopyTextRow {
    private(set) var fields: [String?] = []

    init(_ row: UnsafeBufferPointer<UInt8>) {
        var end = row.count
        if end > 0, row[end - 1] == 10 { end -= 1 }
        var start = 0
        while start <= end {
            var stop = start
            while stop < end, row[stop] != 9 { stop += 1 }
            fields.append(Self.field(UnsafeBufferPointer(rebasing: row[start..<stop])))
            start = stop + 1
        }
    }

    private static func field(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let backslash = UInt8(ascii: "\\")
        if bytes.count == 2, bytes[0] == backslash, bytes[1] == UInt8(ascii: "N") { return nil }
        guard bytes.contains(backslash) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            guard b == backslash, i < bytes.count else {
                out.append(b)
                continue
            }
            let c = bytes[i]
            i += 1
            switch c {
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "v"): out.append(11)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                // Up to three octal digits.
                var value = UInt32(c - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[i]) {
                    value = value * 8 + UInt32(bytes[i] - UInt8(ascii: "0"))
                    i += 1
                    digits += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            default: out.append(c)  // \\ and any other escaped byte stand for themselves
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
