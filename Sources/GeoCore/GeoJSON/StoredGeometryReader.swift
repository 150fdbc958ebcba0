import DomainKernel
import Support

/// Reads the geometries the store wrote back: `Point`, `Polygon` and `MultiPolygon` objects of
/// `type` and `coordinates` alone, as `GeoJSONWriter` writes them, in one pass over the bytes.
///
/// Loading a layer of 300,000 areas through `JSONDecoder` took 2.7 s of an 8.5 s start, most of
/// it boxing every number on its way to a `Position`. The tokens are `JSONParser`'s; the shape is
/// read here without an array per position. What this reader does not recognise — any other
/// member, type or shape, a string escape, a number outside JSON's grammar, a position out of
/// range, an unclosed or short ring — it leaves to `GeoJSONReader` (nil), so a geometry read here
/// is exactly the one the full reader returns, and anything else gets its checks and errors.
public enum StoredGeometryReader {
    /// The geometry in `text`, or nil when the full reader must read it.
    public static func geometry(_ text: String) -> Geometry? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = Scanner(parser: JSONParser(bytes))
            return scanner.geometry()
        }
    }

    private struct Scanner {
        var parser: JSONParser

        /// Positions in document order, each checked as it is read.
        var positions: [Position] = []
        /// Per nesting level above the positions, the number of children of each array at that
        /// level in document order: the shape, without an array allocated per position.
        var counts: [[Int]] = [[], [], [], []]
        /// The level positions sit at (0: the coordinates are one position).
        var positionLevel: Int?

        mutating func geometry() -> Geometry? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var type: String?
            var sawCoordinates = false
            repeat {
                guard let key = string() else { return nil }
                guard take(UInt8(ascii: ":")) else { return nil }
                switch key {
                case "type":
                    guard type == nil, let t = string() else { return nil }
                    type = t
                case "coordinates":
                    guard !sawCoordinates, array(level: 0) else { return nil }
                    sawCoordinates = true
                default:
                    return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
            parser.skipSpace()
            guard parser.i == parser.bytes.count, let type, sawCoordinates else { return nil }
            switch (type, positionLevel) {
            case ("Point", 0?):
                return .point(positions[0])
            case ("Polygon", 2?):
                var next = 0
                return polygon(rings: counts[1][...], next: &next).map(Geometry.polygon)
            case ("MultiPolygon", 3?):
                var next = 0, ring = 0
                var polygons: [Polygon] = []
                polygons.reserveCapacity(counts[1].count)
                for ringCount in counts[1] {
                    guard let p = polygon(rings: counts[2][ring..<(ring + ringCount)], next: &next) else { return nil }
                    polygons.append(p)
                    ring += ringCount
                }
                return .multiPolygon(polygons)
            default:
                return nil
            }
        }

        /// The polygon whose rings have these position counts, from `positions[next...]`.
        private func polygon(rings sizes: ArraySlice<Int>, next: inout Int) -> Polygon? {
            var rings: [[Position]] = []
            rings.reserveCapacity(sizes.count)
            for size in sizes {
                rings.append(Array(positions[next..<(next + size)]))
                next += size
            }
            return try? Polygon(rings: rings)
        }

        /// An array at `level`: of arrays, or a position's two or three numbers.
        mutating func array(level: Int) -> Bool {
            guard level < 4, take(UInt8(ascii: "[")) else { return false }
            if next(is: UInt8(ascii: "[")) {
                var children = 0
                repeat {
                    guard array(level: level + 1) else { return false }
                    children += 1
                } while take(UInt8(ascii: ","))
                counts[level].append(children)
                return take(UInt8(ascii: "]"))
            }
            guard positionLevel == nil || positionLevel == level else { return false }
            positionLevel = level
            guard let lon = number(), take(UInt8(ascii: ",")), let lat = number() else { return false }
            var altitude: Double?
            if take(UInt8(ascii: ",")) {
                guard let a = number() else { return false }
                altitude = a
            }
            guard take(UInt8(ascii: "]")), let p = try? Position(lon: lon, lat: lat, altitude: altitude) else { return false }
            positions.append(p)
            return true
        }

        /// A JSON number, or nil where the text has none.
        mutating func number() -> Double? {
            parser.skipSpace()
            guard parser.i < parser.bytes.count else { return nil }
            let first = parser.bytes[parser.i]
            guard first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
            return try? parser.number()
        }

        /// A string without escapes (a key or a type name).
        mutating func string() -> String? {
            guard next(is: UInt8(ascii: "\"")) else { return nil }
            let start = parser.i
            guard let s = try? parser.string(), parser.i - start == s.utf8.count + 2 else { return nil }
            return s
        }

        /// Skips white space, then consumes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            guard next(is: byte) else { return false }
            parser.i += 1
            return true
        }

        /// Skips white space; whether `byte` comes next.
        mutating func next(is byte: UInt8) -> Bool {
            parser.skipSpace()
            return parser.i < parser.bytes.count && parser.bytes[parser.i] == byte
        }
    }
}
