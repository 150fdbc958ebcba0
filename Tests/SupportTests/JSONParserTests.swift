import Foundation
import Support
import Testing

@Suite("JSON parser and buffer")
struct JSONParserTests {
    static let pieces = ["a", "Ü", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "😀", "e\u{301}", " ", "\u{2028}", "\u{7F}", "\u{FFFF}"]

    static func value(_ g: inout SeededRandom, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0...(depth > 3 ? 3 : 5), using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2:
            let choices: [Double] = [0, -0.5, 1e-7, 123456789.125, -1e300, 2.5e-300, Double(Int.random(in: -1_000_000...1_000_000, using: &g)),
                                     Double.random(in: -1000...1000, using: &g)]
            return .number(choices.randomElement(using: &g)!)
        case 3: return .string((0..<Int.random(in: 0...8, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined())
        case 4: return .array((0..<Int.random(in: 0...4, using: &g)).map { _ in value(&g, depth: depth + 1) })
        default:
            var o: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &g) {
                o[(0..<Int.random(in: 0...4, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()] = value(&g, depth: depth + 1)
            }
            return .object(o)
        }
    }

    static func write(_ v: JSONValue, _ out: inout JSONBuffer) {
        switch v {
        case .null: out.null()
        case .bool(let b): out.bool(b)
        case .number(let d): out.number(d)
        case .string(let s): out.string(s)
        case .array(let a):
            out.beginArray()
            for e in a { write(e, &out) }
            out.endArray()
        case .object(let o):
            out.beginObject()
            for (k, e) in o { out.key(k); write(e, &out) }
            out.endObject()
        }
    }

    @Test("random values read back the same, from JSONBuffer's text and from JSONEncoder's escaping")
    func roundTrip() throws {
        var g = SeededRandom(seed: 8259)
        for _ in 0..<1_000 {
            let v = Self.value(&g)
            var out = JSONBuffer()
            Self.write(v, &out)
            #expect(try JSONParser.parse(out.bytes) == v, "\(String(decoding: out.bytes, as: UTF8.self))")
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(out.bytes)) == v)
            #expect(try JSONParser.parse(Array(JSONEncoder().encode(v))) == v)
        }
    }

    @Test("numbers read as Double's own parser reads them, bit for bit, on the fast path and off it")
    func numbersAsDouble() throws {
        var g = SeededRandom(seed: 1990)
        func digits(_ n: Int) -> String { String((0..<n).map { _ in "0123456789".randomElement(using: &g)! }) }
        var texts = ["0", "-0", "0.0", "-0.0", "1", "-1", "9007199254740992", "9007199254740993", "9999999999999999999", "18446744073709551616",
                     "1e22", "1e23", "1e-22", "1e-23", "123456789012345678e-10", "0.1", "0.30000000000000004", "-87.6298", "41.8781",
                     "1E5", "1e+05", "2.5e-0300", "1.7976931348623157e308", "4.9e-324", "1e0022", "1e00000000001", "0.000000000000000000000001"]
        for _ in 0..<20_000 {
            let whole = Bool.random(using: &g) ? "0" : String(Int.random(in: 1...9, using: &g)) + digits(Int.random(in: 0...12, using: &g))
            var text = (Bool.random(using: &g) ? "-" : "") + whole
            if Bool.random(using: &g) { text += "." + digits(Int.random(in: 1...12, using: &g)) }
            if Int.random(in: 0..<4, using: &g) == 0 { text += ["e", "E"].randomElement(using: &g)! + ["", "+", "-"].randomElement(using: &g)! + String(Int.random(in: 0...40, using: &g)) }
            texts.append(text)
        }
        for text in texts {
            guard case .number(let read) = try JSONParser.parse(Array(text.utf8)) else { Issue.record("\(text) is not a number"); continue }
            let expected = try #require(Double(text))
            #expect(read.bitPattern == expected.bitPattern, "\(text): \(read) against \(expected)")
        }
    }

    @Test("escapes, surrogate pairs and white space read as RFC 8259 says")
    func escapes() throws {
        let text = " {\"a\\u00e9\\/\" : [\"\\ud83d\\ude00\", \"\\b\\f\\n\\r\\t\\\"\\\\\", -0.5e+2, 0, 1E3, true, false, null]}\r\n"
        #expect(try JSONParser.parse(Array(text.utf8)) == .object(["aé/": .array([
            .string("😀"), .string("\u{8}\u{C}\n\r\t\"\\"), .number(-50), .number(0), .number(1000), .bool(true), .bool(false), .null,
        ])]))
    }

    @Test("text that is not JSON is refused with where reading stopped", arguments: [
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[1.]", "[.5]", "[-]", "[1e]", "[+1]", "NaN", "[Infinity]",
        "tru", "nul", "\"abc", "\"a\u{1}b\"", "\"\\x\"", "\"\\u12\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"", "[1] 2", "{} x",
        "[1e999]", "'a'", "[\"a\"\"b\"]",
    ])
    func refused(text: String) {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test("invalid UTF-8 and nesting beyond the limit are refused")
    func limits() {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse([0x22, 0x5C, 0x6E, 0xFF, 0x22]) }
        let deep = String(repeating: "[", count: JSONParser.maxDepth + 1) + String(repeating: "]", count: JSONParser.maxDepth + 1)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        #expect(throws: Never.self) { try JSONParser.parse(Array(fine.utf8)) }
    }

    @Test("an object naming a member twice is refused, naming it, at any depth; the same name in sibling objects is fine")
    func duplicates() {
        for text in [#"{"a":1,"a":2}"#, #"{"a":1,"b":{"c":1,"c":1}}"#, #"[{"x":true,"y":0,"x":false}]"#] {
            #expect(throws: JSONParser.SyntaxError.self, "\(text)") { try JSONParser.parse(Array(text.utf8)) }
        }
        do { _ = try JSONParser.parse(Array(#"{"kind":"covid","kind":"misconduct"}"#.utf8)) } catch {
            #expect(error.duplicateMember == "kind" && error.reason.contains("appears twice"))
        }
        #expect(throws: Never.self) { try JSONParser.parse(Array(#"{"a":{"b":1},"c":{"b":2},"d":[{"b":3},{"b":4}]}"#.utf8)) }
    }
}
