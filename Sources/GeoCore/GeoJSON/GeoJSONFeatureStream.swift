import Foundation

/// A FeatureCollection read one feature at a time, so that a layer file is never held as one
/// decoded document: decoding 87 MB of GeoJSON whole kept the decoder's map of it and every
/// feature alive together, most of an import's 616 MB peak.
///
/// A byte scan finds the top-level members and the extent of each element of `features`; the
/// other members are decoded as a collection without features (so `type`, `crs` and `bbox` are
/// checked as before), and each element is decoded as a `Feature` when asked for. Anything the
/// scan does not expect (not an object, an escaped or repeated member name, no `features`
/// array, trailing bytes) yields no stream, and any failure to decode re-reads the document
/// whole, so every error and its path are exactly those of `GeoJSONReader.featureCollection`.
public struct GeoJSONFeatureStream {
    private let data: Data
    private let reader: GeoJSONReader
    /// Where each element of `features` lies in `data` (indices of `data`).
    private let elements: [Range<Int>]
    private let decoder = JSONDecoder()

    /// Number of features.
    public var count: Int { elements.count }

    /// Scans the document; nil when it is not laid out as the scan expects (read it whole).
    /// - Throws: what reading it whole throws, when the members other than `features` are not
    ///   a valid collection, or the document is too large or too deep.
    public init?(data: Data, reader: GeoJSONReader) throws(GeoJSONError) {
        try reader.checkLimits(data)
        guard let (members, features) = Self.scan(data) else { return nil }
        self.data = data
        self.reader = reader
        self.elements = features
        var head = Data("{".utf8)
        for (name, range) in members {
            head.append(contentsOf: Data("\"\(name)\":".utf8))
            head.append(data[range])
            head.append(UInt8(ascii: ","))
        }
        head.append(contentsOf: Data(#""features":[]}"#.utf8))
        do {
            _ = try reader.featureCollection(from: head)
        } catch {
            _ = try reader.featureCollection(from: data)
            throw error
        }
    }

    /// Feature `i` and what lenient reading changed in it (paths from the document's root).
    public func feature(_ i: Int) throws(GeoJSONError) -> (feature: Feature, notes: [GeoJSONReadingNote]) {
        let notes = GeoJSONReadingNotes()
        decoder.userInfo[GeoJSONDecodingOptions.key] = GeoJSONDecodingOptions(
            closeUnclosedRings: reader.closeUnclosedRings, maxCollectionDepth: reader.maxCollectionDepth, notes: notes)
        do {
            let feature = try decoder.decode(Feature.self, from: data[elements[i]])
            let prefix = "$.features[\(i)]"
            return (feature, notes.all.map { GeoJSONReadingNote(path: prefix + $0.path.dropFirst(), message: $0.message) })
        } catch {
            // The whole document's error, with its path, as reading it whole reports it.
            _ = try reader.featureCollection(from: data)
            throw GeoJSONError(path: "$.features[\(i)]", reason: "not readable as a GeoJSON Feature")
        }
    }

    /// The top-level members but `features` (name, value range), and the ranges of the
    /// elements of `features`; nil when the layout is not the expected one.
    private static func scan(_ data: Data) -> (members: [(String, Range<Int>)], features: [Range<Int>])? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> ([(String, Range<Int>)], [Range<Int>])? in
            var scanner = ByteScanner(bytes: raw)
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            var members: [(String, Range<Int>)] = []
            var features: [Range<Int>]?
            var names = Set<String>()
            if !scanner.take(UInt8(ascii: "}")) {
                repeat {
                    guard let name = scanner.plainString(), names.insert(name).inserted, scanner.take(UInt8(ascii: ":")) else { return nil }
                    scanner.skipSpace()
                    if name == "features" {
                        guard let list = scanner.elements() else { return nil }
                        features = list
                    } else {
                        let start = scanner.position
                        guard scanner.skipValue() else { return nil }
                        members.append((name, start..<scanner.position))
                    }
                } while scanner.take(UInt8(ascii: ","))
                guard scanner.take(UInt8(ascii: "}")) else { return nil }
            }
            scanner.skipSpace()
            guard scanner.position == raw.count, let features else { return nil }
            let base = data.startIndex
            return (members.map { ($0.0, ($0.1.lowerBound + base)..<($0.1.upperBound + base)) },
                    features.map { ($0.lowerBound + base)..<($0.upperBound + base) })
        }
    }
}

/// Just enough of a JSON scanner to find where values begin and end; what lies inside them is
/// checked by the decoder.
private struct ByteScanner {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    mutating func skipSpace() {
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
    }

    /// Skips space and takes `byte` when it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// A string without escapes, as member names are; nil otherwise.
    mutating func plainString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
            if bytes[position] == UInt8(ascii: "\\") { return nil }
            position += 1
        }
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// The ranges of an array's elements.
    mutating func elements() -> [Range<Int>]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var out: [Range<Int>] = []
        if take(UInt8(ascii: "]")) { return out }
        repeat {
            skipSpace()
            let start = position
            guard skipValue() else { return nil }
            out.append(start..<position)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? out : nil
    }

    /// Moves past one value: a string, an object or array (to its matching end), or a bare
    /// word (number, true, false, null) up to the next delimiter.
    mutating func skipValue() -> Bool {
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { position += 1; return true }
                default: break
                }
                position += 1
            }
            return false
        default:
            let start = position
            while position < bytes.count {
                let b = bytes[position]
                if b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]") || Self.isSpace(b) { break }
                position += 1
            }
            return position > start
        }
    }

    private mutating func skipString() -> Bool {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""): position += 1; return true
            default: position += 1
            }
        }
        return false
    }
}
