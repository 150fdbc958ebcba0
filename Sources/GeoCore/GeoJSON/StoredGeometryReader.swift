import Foundation

/// Reads the geometries the store wrote back: `Point`, `Polygon` and `MultiPolygon` objects of
/// `type` and `coordinates` alone, as `GeoJSONWriter` writes them, in one pass over the bytes.
///
/// Loading a layer of 300,000 areas through `JSONDecoder` took 2.7 s of an 8.5 s start, most of
/// it boxing every number on its way to a `Position`. What this reader does not recognise — any
/// other member, type or shape, a string escape, a number outside JSON's grammar, a position out
/// of range, an unclosed or short ring — it leaves to `GeoJSONReader` (nil), so a geometry read
/// here is exactly the one the full reader returns, and anything else gets its checks and errors.
public enum StoredGeometryReader {
    /// The geometry in `text`, or nil when the full reader must read it.
    public static func geometry(_ text: String) -> Geometry? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.geometry()
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

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
            skipSpace()
            guard at == bytes.count, let type, sawCoordinates else { return nil }
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
            skipSpace()
            guard at < bytes.count else { return false }
            if bytes[at] == UInt8(ascii: "[") {
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

        /// A JSON number: its grammar checked here, its value from `strtod` (correctly rounded,
        /// as the full reader's is).
        mutating func number() -> Double? {
            skipSpace()
            let start = at
            func digits() -> Int {
                let from = at
                while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
                return at - from
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            let leading = at
            let whole = digits()
            guard whole > 0, !(whole > 1 && bytes[leading] == UInt8(ascii: "0")) else { return nil }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard digits() > 0 else { return nil }
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                guard digits() > 0 else { return nil }
            }
            let length = at - start
            guard length < 64 else { return nil }
            // Copied out with a terminator: strtod reads to the first byte that cannot continue
            // a number, and the text's own buffer need not end in one.
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
                for i in 0..<length { buffer[i] = CChar(bitPattern: bytes[start + i]) }
                buffer[length] = 0
                var end: UnsafeMutablePointer<CChar>?
                let value = strtod(buffer.baseAddress!, &end)
                return end == buffer.baseAddress! + length ? value : nil
            }
        }

        /// A string without escapes (a key or a type name).
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                if bytes[at] == UInt8(ascii: "\\") || bytes[at] < 0x20 { return nil }
                at += 1
            }
            guard at < bytes.count else { return nil }
            let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            at += 1
            return s
        }

        /// Skips white space, then consumes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
        }
    }
}
