/// Whether bytes are one JSON object (RFC 8259), checked without building it: an import checks a
/// payload per row, and building Foundation objects for a million of them was a tenth of the
/// import's time.
enum JSONSyntax {
    static func isObject(_ bytes: some Collection<UInt8>) -> Bool {
        var reader = Reader(bytes: Array(bytes))
        reader.skipSpace()
        guard reader.peek == UInt8(ascii: "{"), reader.value(depth: 0) else { return false }
        reader.skipSpace()
        return reader.at == reader.bytes.count
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        /// Deeper nesting is refused rather than risking the stack.
        static let maxDepth = 64

        var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { at += 1 }
        }

        mutating func literal(_ word: String) -> Bool {
            for b in word.utf8 {
                guard peek == b else { return false }
                at += 1
            }
            return true
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < Self.maxDepth else { return false }
            skipSpace()
            switch peek {
            case UInt8(ascii: "{"):
                at += 1
                skipSpace()
                if peek == UInt8(ascii: "}") { at += 1; return true }
                while true {
                    skipSpace()
                    guard string() else { return false }
                    skipSpace()
                    guard peek == UInt8(ascii: ":") else { return false }
                    at += 1
                    guard value(depth: depth + 1) else { return false }
                    skipSpace()
                    if peek == UInt8(ascii: ",") { at += 1; continue }
                    guard peek == UInt8(ascii: "}") else { return false }
                    at += 1
                    return true
                }
            case UInt8(ascii: "["):
                at += 1
                skipSpace()
                if peek == UInt8(ascii: "]") { at += 1; return true }
                while true {
                    guard value(depth: depth + 1) else { return false }
                    skipSpace()
                    if peek == UInt8(ascii: ",") { at += 1; continue }
                    guard peek == UInt8(ascii: "]") else { return false }
                    at += 1
                    return true
                }
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func string() -> Bool {
            guard peek == UInt8(ascii: "\"") else { return false }
            at += 1
            while let b = peek {
                at += 1
                switch b {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard let e = peek else { return false }
                    at += 1
                    if e == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let h = peek, (0x30...0x39).contains(h) || (0x41...0x46).contains(h) || (0x61...0x66).contains(h) else { return false }
                            at += 1
                        }
                    } else if !"\"\\/bfnrt".utf8.contains(e) {
                        return false
                    }
                case 0..<0x20: return false
                default: continue
                }
            }
            return false
        }

        mutating func number() -> Bool {
            if peek == UInt8(ascii: "-") { at += 1 }
            func digits() -> Int {
                var n = 0
                while let b = peek, (0x30...0x39).contains(b) { at += 1; n += 1 }
                return n
            }
            if peek == UInt8(ascii: "0") { at += 1 } else if digits() == 0 { return false }
            if peek == UInt8(ascii: ".") {
                at += 1
                guard digits() > 0 else { return false }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                at += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
                guard digits() > 0 else { return false }
            }
            return true
        }
    }
}
