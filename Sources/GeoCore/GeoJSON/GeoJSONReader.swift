import Foundation
import Support
import Synchronization

/// A failure to read GeoJSON: where (a JSON path such as `$.features[3].geometry.coordinates[0]`)
/// and why.
public struct GeoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// JSON path of the member that failed, `$` for the document.
    public let path: String
    /// What is wrong, in words meant for the person who wrote the file.
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// Something the reader changed while reading leniently, with where it happened.
public struct GeoJSONReadingNote: Equatable, Sendable {
    public let path: String
    public let message: String
}

/// Collects reading notes across one decode; shared with the decoder through `userInfo`.
final class GeoJSONReadingNotes: Sendable {
    private let notes = Mutex<[GeoJSONReadingNote]>([])

    func add(path: [any CodingKey], _ message: String) {
        let note = GeoJSONReadingNote(path: GeoJSONReader.jsonPath(path), message: message)
        notes.withLock { $0.append(note) }
    }

    var all: [GeoJSONReadingNote] { notes.withLock { $0 } }
}

/// Strict RFC 7946 reader with limits.
///
/// Reading fails with a `GeoJSONError` naming the member and the reason: malformed JSON, unknown
/// types, unclosed rings, rings of fewer than four positions, non-numeric, NaN or infinite
/// coordinates, latitude beyond ±90, longitude beyond ±180, nesting beyond the limits, input
/// beyond the size limit, and a `crs` other than WGS 84.
public struct GeoJSONReader: Sendable {
    /// Largest document accepted, in bytes.
    public var maxBytes: Int
    /// Deepest JSON nesting accepted (arrays and objects).
    public var maxJSONDepth: Int
    /// Deepest GeometryCollection nesting accepted.
    public var maxCollectionDepth: Int
    /// Close rings whose last position differs from the first (recording a note) instead of
    /// failing. Import of area layers uses this so that the repair report can say what it did.
    public var closeUnclosedRings: Bool

    public init(maxBytes: Int = 512 << 20, maxJSONDepth: Int = 64, maxCollectionDepth: Int = 8, closeUnclosedRings: Bool = false) {
        self.maxBytes = maxBytes
        self.maxJSONDepth = maxJSONDepth
        self.maxCollectionDepth = maxCollectionDepth
        self.closeUnclosedRings = closeUnclosedRings
    }

    /// Reads a FeatureCollection.
    public func featureCollection(from data: Data) throws(GeoJSONError) -> FeatureCollection {
        try read(FeatureCollection.self, from: data).value
    }

    /// Reads a FeatureCollection and returns what lenient reading changed.
    public func featureCollectionWithNotes(from data: Data) throws(GeoJSONError) -> (FeatureCollection, [GeoJSONReadingNote]) {
        let r = try read(FeatureCollection.self, from: data)
        return (r.value, r.notes)
    }

    /// Reads a Feature.
    public func feature(from data: Data) throws(GeoJSONError) -> Feature {
        try read(Feature.self, from: data).value
    }

    /// Reads a bare geometry.
    public func geometry(from data: Data) throws(GeoJSONError) -> Geometry {
        try read(Geometry.self, from: data).value
    }

    private func read<T: Decodable>(_ type: T.Type, from data: Data) throws(GeoJSONError) -> (value: T, notes: [GeoJSONReadingNote]) {
        try checkLimits(data)
        let notes = GeoJSONReadingNotes()
        let decoder = JSONDecoder()
        decoder.userInfo[GeoJSONDecodingOptions.key] = GeoJSONDecodingOptions(
            closeUnclosedRings: closeUnclosedRings, maxCollectionDepth: maxCollectionDepth, notes: notes)
        do {
            return (try decoder.decode(T.self, from: data), notes.all)
        } catch let error as DecodingError {
            var described = Self.describe(error)
            if described.path == "$", case .dataCorrupted = error { described = Self.syntaxError(in: data) ?? described }
            throw described
        } catch {
            throw GeoJSONError(path: "$", reason: "not readable as GeoJSON")
        }
    }

    /// Rejects documents over `maxBytes`, and nested deeper than `maxJSONDepth` before the
    /// decoder recurses into them.
    func checkLimits(_ data: Data) throws(GeoJSONError) {
        guard data.count <= maxBytes else {
            throw GeoJSONError(path: "$", reason: "document is \(data.count) bytes; the limit is \(maxBytes)")
        }
        try checkDepth(data)
        try checkStrictly(data)
    }

    /// Refuses what `JSONParser` refuses and Foundation's readers took (`JSONParser.check`): a
    /// member named twice, an unpaired surrogate, invalid UTF-8, a number out of range either
    /// way. Depth is `checkDepth`'s, to this reader's own limit.
    private func checkStrictly(_ data: Data) throws(GeoJSONError) {
        // A byte order mark before the text is taken, as Foundation's readers take it.
        let bom = data.starts(with: [0xEF, 0xBB, 0xBF])
        do throws(JSONParser.SyntaxError) { try JSONParser.check(bom ? data.dropFirst(3) : data) } catch {
            guard !error.isTooDeep else { return }
            // The same message as before for what Foundation refuses as well.
            if let syntax = Self.syntaxError(in: data) { throw syntax }
            let offset = error.offset + (bom ? 3 : 0)
            let prefix = data.prefix(offset)
            let line = prefix.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 - data.startIndex } ?? 0) + 1
            throw GeoJSONError(path: "$", reason: "not valid JSON: \(error.reason) at line \(line), column \(column)")
        }
    }

    /// Rejects documents nested deeper than `maxJSONDepth` before the decoder recurses into them.
    private func checkDepth(_ data: Data) throws(GeoJSONError) {
        var depth = 0
        var inString = false
        var escaped = false
        var offset = 0
        let limit = maxJSONDepth
        let tooDeep: Int? = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            for byte in raw {
                defer { offset += 1 }
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > limit { return offset }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            return nil
        }
        if let at = tooDeep {
            throw GeoJSONError(path: "$", reason: "JSON nested deeper than \(limit) levels (at byte \(at))")
        }
    }

    /// Formats a coding path as a JSON path: `$.features[3].geometry`.
    static func jsonPath(_ path: [any CodingKey]) -> String {
        var s = "$"
        for key in path {
            if let i = key.intValue { s += "[\(i)]" } else { s += "." + key.stringValue }
        }
        return s
    }

    static func describe(_ error: DecodingError) -> GeoJSONError {
        switch error {
        case .dataCorrupted(let ctx):
            return GeoJSONError(path: jsonPath(ctx.codingPath), reason: ctx.debugDescription)
        case .keyNotFound(let key, let ctx):
            return GeoJSONError(path: jsonPath(ctx.codingPath + [key]), reason: "required member \"\(key.stringValue)\" is missing")
        case .typeMismatch(let type, let ctx):
            return GeoJSONError(path: jsonPath(ctx.codingPath), reason: "expected \(typeWord(type))")
        case .valueNotFound(let type, let ctx):
            return GeoJSONError(path: jsonPath(ctx.codingPath), reason: "expected \(typeWord(type)), found null")
        @unknown default:
            return GeoJSONError(path: "$", reason: "not readable as GeoJSON")
        }
    }

    /// The JSON syntax error in a document, with its line and column, or nil when the
    /// document parses. Only called on the failure path.
    static func syntaxError(in data: Data) -> GeoJSONError? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch let error as NSError {
            var detail = (error.userInfo[NSDebugDescriptionErrorKey] as? String) ?? "unreadable"
            if let r = detail.range(of: "around character "),
               let offset = Int(detail[r.upperBound...].prefix { $0.isNumber }) {
                let prefix = data.prefix(offset)
                let line = prefix.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
                let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
                detail = String(detail[..<r.lowerBound]) + "at line \(line), column \(column)"
            }
            if detail.hasSuffix(".") { detail.removeLast() }
            return GeoJSONError(path: "$", reason: "not valid JSON: \(detail)")
        }
    }

    private static func typeWord(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type, is Int.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") || name.hasPrefix("[") || name.contains("Unkeyed") { return "an array" }
            if name.hasPrefix("Dictionary") || name.contains("Keyed") { return "an object" }
            return "a value of type \(name)"
        }
    }
}
