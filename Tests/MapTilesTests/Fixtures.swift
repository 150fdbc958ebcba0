import GeoCore
import DomainKernel
import Foundation
import MapTiles

/// Small synthetic layers with known geometry.
enum Fixtures {
    /// A closed rectangle ring in degrees.
    static func rectangle(west: Double, south: Double, east: Double, north: Double) -> [Position] {
        [(west, south), (east, south), (east, north), (west, north), (west, south)].map { try! Position(lon: $0.0, lat: $0.1) }
    }

    /// An area made of one rectangle.
    static func box(_ id: String, _ west: Double, _ south: Double, _ east: Double, _ north: Double) -> IndexedArea {
        IndexedArea(id: id, polygons: [try! Polygon(rings: [rectangle(west: west, south: south, east: east, north: north)])])
    }

    /// Six areas inside tile 10/512/511 (lon 0…0.3516, lat 0…0.3516), each about 58 px wide.
    static let grid: [IndexedArea] = [
        box("low", 0.02, 0.02, 0.10, 0.10),
        box("high", 0.12, 0.02, 0.20, 0.10),
        box("mid", 0.22, 0.02, 0.30, 0.10),
        box("hidden", 0.02, 0.12, 0.10, 0.20),
        box("none", 0.12, 0.12, 0.20, 0.20),
        box("zero", 0.22, 0.12, 0.30, 0.20),
    ]

    /// Values of `grid`: with breaks 10 and 60, low and zero are class 0, mid 1, high 2.
    static let gridValues: [String: TileValue] = [
        "low": .value(1), "high": .value(100), "mid": .value(50), "hidden": .suppressed, "zero": .value(0),
    ]

    /// Three fixed-break classes of YlOrRd: #ffeda0, #feb24c, #f03b20.
    static let threeClasses = TileStyle(classification: .fixedBreaks([10, 60]))

    /// A wiggly ring of `n` points around a centre (radius in degrees), closed.
    static func wiggly(lon: Double, lat: Double, radius: Double, n: Int) -> [Position] {
        var ring: [Position] = []
        for k in 0..<n {
            let t = Double(k) / Double(n) * 2 * Double.pi
            let r = radius * (1 + 0.15 * sin(7 * t) + 0.03 * sin(61 * t))
            ring.append(try! Position(lon: lon + r * cos(t), lat: lat + r * sin(t)))
        }
        ring.append(ring[0])
        return ring
    }
}
