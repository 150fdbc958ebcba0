/// A JSON text checked as `JSONParser.parse` reads it, without building its values: every
/// reader of untrusted JSON (layer uploads, both importers, report payloads) runs this first, so
/// that what one of them refuses none of them takes. Foundation's readers took a member named
/// twice (one kept the first copy, another the last), an unpaired surrogate, invalid UTF-8 in a
/// member name and `1e400`, which read back as null.
extension JSONParser {
    /// Throws what `parse` would throw for `bytes`, and nothing else.
    public static func check(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) {
        var p = JSONParser(bytes)
        p.skipSpace()
        try p.skipValue(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw p.error("text after the value") }
    }

    /// `check` of bytes that must hold one object (a report's payload, a FeatureCollection).
    public static func checkObject(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) {
        var start = 0
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x0A || bytes[start] == 0x0D || bytes[start] == 0x09 { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { throw SyntaxError(offset: start, reason: "not a JSON object") }
        try check(bytes)
    }

    /// `check` of any bytes (`Data`, `[UInt8]`), read in place when they are contiguous.
    public static func check<Bytes: Collection<UInt8>>(_ bytes: Bytes, object: Bool = false) throws(SyntaxError) {
        func run(_ buffer: UnsafeBufferPointer<UInt8>) -> SyntaxError? {
            do throws(SyntaxError) {
                if object { try checkObject(buffer) } else { try check(buffer) }
                return nil
            } catch { return error }
        }
        let failure = bytes.withContiguousStorageIfAvailable(run) ?? Array(bytes).withUnsafeBufferPointer(run)
        if let failure { throw failure }
    }

    private mutating func skipValue(depth: Int) throws(SyntaxError) {
        guard i < bytes.count else { throw error("unexpected end") }
        switch bytes[i] {
        case UInt8(ascii: "{"): try skipObject(depth: depth + 1)
        case UInt8(ascii: "["): try skipArray(depth: depth + 1)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        default: throw error("unexpected character")
        }
    }

    private mutating func skipObject(depth: Int) throws(SyntaxError) {
        guard depth <= Self.maxDepth else { throw error(SyntaxError.tooDeep) }
        i += 1
        var names = Set<String>()
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected a colon") }
            i += 1
            skipSpace()
            guard names.insert(key).inserted else {
                var twice = error("member \"\(key)\" appears twice")
                twice.duplicateMember = key
                throw twice
            }
            try skipValue(depth: depth)
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard bytes[i] == UInt8(ascii: "}") else { throw error("expected a comma or a closing brace") }
            i += 1
            return
        }
    }

    private mutating func skipArray(depth: Int) throws(SyntaxError) {
        guard depth <= Self.maxDepth else { throw error(SyntaxError.tooDeep) }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return }
        while true {
            skipSpace()
            try skipValue(depth: depth)
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard bytes[i] == UInt8(ascii: "]") else { throw error("expected a comma or a closing bracket") }
            i += 1
            return
        }
    }
}
