/// An RFC 8259 JSON parser into `JSONValue`, for request bodies on hot paths where
/// `JSONDecoder` costs more than the rest of the request. Strict: one value with optional white
/// space around it, no comments, no trailing commas, no leading zeros, no lone surrogates.
/// An object naming a member twice is refused (RFC 8259 leaves its meaning open, and readers
/// differ: one keeps the first value, another the last), so every body means one thing to every
/// reader of it.
public struct JSONParser {
    /// Why a text is not JSON, with the byte offset where reading stopped.
    public struct SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        /// The member an object named twice, when that is the reason.
        public var duplicateMember: String? = nil
        public var description: String { "\(reason) at byte \(offset)" }
        /// The text may be valid JSON, only nested deeper than `maxDepth`.
        public var isTooDeep: Bool { reason == SyntaxError.tooDeep }
        static let tooDeep = "nested too deeply"
    }

    /// Nesting beyond this is refused rather than risking the stack.
    public static let maxDepth = 64

    // Package-wide rather than private: GeoCore's `StoredGeometryReader` reads coordinates with
    // these, without a `JSONValue` for every number.
    package let bytes: UnsafeBufferPointer<UInt8>
    package var i = 0

    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The value of a complete JSON text.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONValue {
        var p = JSONParser(bytes)
        p.skipSpace()
        let value = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw p.error("text after the value") }
        return value
    }

    /// The value of a complete JSON text.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        let result: Result<JSONValue, SyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(SyntaxError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    func error(_ reason: String) -> SyntaxError {
        SyntaxError(offset: i, reason: reason)
    }

    package mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
        guard i < bytes.count else { throw error("unexpected end") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw error("unexpected end") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw error("unexpected character") }
        i += n
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
        guard depth <= Self.maxDepth else { throw error(SyntaxError.tooDeep) }
        i += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected a colon") }
            i += 1
            skipSpace()
            guard members[key] == nil else {
                var twice = error("member \"\(key)\" appears twice")
                twice.duplicateMember = key
                throw twice
            }
            members[key] = try value(depth: depth)
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard bytes[i] == UInt8(ascii: "}") else { throw error("expected a comma or a closing brace") }
            i += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
        guard depth <= Self.maxDepth else { throw error(SyntaxError.tooDeep) }
        i += 1
        var elements: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value(depth: depth))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard bytes[i] == UInt8(ascii: "]") else { throw error("expected a comma or a closing bracket") }
            i += 1
            return .array(elements)
        }
    }

    package mutating func string() throws(SyntaxError) -> String {
        i += 1
        let start = i
        // The common case: no escapes, so the bytes between the quotes are the string.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
        guard i < bytes.count else { throw error("unterminated string") }
        if bytes[i] == UInt8(ascii: "\"") {
            let text = try utf8(start..<i)
            i += 1
            return text
        }
        var out = Array(bytes[start..<i])
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            guard b >= 0x20 else { throw error("control character in a string") }
            guard b == UInt8(ascii: "\\") else { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw error("unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("lone surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("lone surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("lone surrogate")
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw error("unknown escape")
            }
        }
        i += 1
        guard let text = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8") }
        return text
    }

    private func utf8(_ range: Range<Int>) throws(SyntaxError) -> String {
        guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
            throw SyntaxError(offset: range.lowerBound, reason: "invalid UTF-8")
        }
        return text
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("unterminated string") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("bad \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. A number of at most 19 digits
    /// whose digits make an integer below 2^53 and whose power of ten is within ±22 is one
    /// exact integer times or divided by one exact power of ten, a single correctly rounded
    /// operation (Clinger's fast path): every coordinate written to 7 decimals is one. Anything
    /// else is read by `Double`'s own parser; `strtod` was a third of reading a layer's geometry.
    package mutating func number() throws(SyntaxError) -> Double {
        let start = i
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) { p.i += 1 }
            return p.i - s
        }
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let intStart = i
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw error("bad number") }
        guard !(intDigits > 1 && bytes[intStart] == UInt8(ascii: "0")) else { throw SyntaxError(offset: intStart, reason: "leading zero") }
        var fraction = intStart..<intStart
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let s = i
            guard digits(&self) > 0 else { throw error("bad number") }
            fraction = s..<i
        }
        var exponent = 0, exponentFits = true
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            let minus = i < bytes.count && bytes[i] == UInt8(ascii: "-")
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let s = i
            guard digits(&self) > 0 else { throw error("bad number") }
            exponentFits = i - s <= 4
            if exponentFits { for k in s..<i { exponent = exponent * 10 + Int(bytes[k] &- UInt8(ascii: "0")) } }
            if minus { exponent = -exponent }
        }
        if exponentFits, intDigits + fraction.count <= 19 {
            var mantissa: UInt64 = 0
            for k in intStart..<(intStart + intDigits) { mantissa = mantissa &* 10 &+ UInt64(bytes[k] &- UInt8(ascii: "0")) }
            for k in fraction { mantissa = mantissa &* 10 &+ UInt64(bytes[k] &- UInt8(ascii: "0")) }
            let power = exponent - fraction.count
            if mantissa <= 1 << 53, (-22...22).contains(power) {
                let m = Double(mantissa)
                let d = power >= 0 ? m * Self.powersOfTen[power] : m / Self.powersOfTen[-power]
                return negative ? -d : d
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let d = Double(text), d.isFinite else { throw SyntaxError(offset: start, reason: "number out of range") }
        // A number written with a digit that is not 0 but read as zero (`1e-400`) is out of
        // range too: read as 0, a hall had a vertex at latitude 0.
        if d == 0, (intStart..<(intStart + intDigits)).contains(where: { bytes[$0] != UInt8(ascii: "0") }) || fraction.contains(where: { bytes[$0] != UInt8(ascii: "0") }) {
            throw SyntaxError(offset: start, reason: "number out of range")
        }
        return d
    }

    /// 10^0 … 10^22: every one exact in a double.
    private static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]
}
