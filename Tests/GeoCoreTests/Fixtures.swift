import DomainKernel
import Foundation
@testable import GeoCore
import Support

func pos(_ lon: Double, _ lat: Double) -> Position { try! Position(lon: lon, lat: lat) }

/// A closed ring from corner positions (the first is repeated at the end).
func closedRing(_ corners: [(Double, Double)]) -> [Position] {
    let ps = corners.map { pos($0.0, $0.1) }
    return ps + [ps[0]]
}

func square(_ x: Double, _ y: Double, _ size: Double) -> Polygon {
    try! Polygon(rings: [closedRing([(x, y), (x + size, y), (x + size, y + size), (x, y + size)])])
}

/// A warped grid of quads that share vertices exactly, with holes, islands in holes and
/// two-part areas: a layer with every topology the index must get right.
struct WarpedGridLayer {
    let areas: [IndexedArea]
    /// Positions that lie exactly on boundaries (vertices) or in holes.
    let vertices: [(Double, Double)]
    let holeCentres: [(Double, Double)]
    let box: BoundingBox

    init(n: Int, seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let x0 = -87.70, y0 = 41.80, step = 0.01
        var grid = [[(Double, Double)]]()
        for i in 0...n {
            var col = [(Double, Double)]()
            for j in 0...n {
                let inner = i > 0 && i < n && j > 0 && j < n
                let jx = inner ? Double.random(in: -0.3...0.3, using: &rng) * step : 0
                let jy = inner ? Double.random(in: -0.3...0.3, using: &rng) * step : 0
                col.append((x0 + Double(i) * step + jx, y0 + Double(j) * step + jy))
            }
            grid.append(col)
        }
        var areas: [IndexedArea] = []
        var vertices: [(Double, Double)] = grid.flatMap { $0 }
        var holeCentres: [(Double, Double)] = []
        var ids = Array(0..<(n * n)).map { "cell-\($0)" }
        ids.shuffle(using: &rng)
        var k = 0
        var pendingSecondPart: Polygon?
        for i in 0..<n {
            for j in 0..<n {
                let corners = [grid[i][j], grid[i + 1][j], grid[i + 1][j + 1], grid[i][j + 1]]
                var rings = [closedRing(corners)]
                if (i + 2 * j) % 5 == 0 {
                    // A hole around the quad's centre, and every other hole holds an island area.
                    let cx = corners.map(\.0).reduce(0, +) / 4, cy = corners.map(\.1).reduce(0, +) / 4
                    let h = step * 0.15
                    let hole = [(cx - h, cy - h), (cx - h, cy + h), (cx + h, cy + h), (cx + h, cy - h)]
                    rings.append(closedRing(hole))
                    vertices.append(contentsOf: hole)
                    if (i + j) % 2 == 0 {
                        let s = h * 0.5
                        areas.append(IndexedArea(id: "island-\(i)-\(j)", polygons: [try! Polygon(rings: [closedRing([(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)])])]))
                        holeCentres.append((cx + h * 0.75, cy))
                    } else {
                        holeCentres.append((cx, cy))
                    }
                }
                let polygon = try! Polygon(rings: rings)
                // Every seventh quad is held back and joined to a later one as a MultiPolygon.
                if (i * n + j) % 7 == 3, pendingSecondPart == nil {
                    pendingSecondPart = polygon
                    continue
                }
                var parts = [polygon]
                if (i * n + j) % 7 == 6, let second = pendingSecondPart {
                    parts.append(second)
                    pendingSecondPart = nil
                }
                areas.append(IndexedArea(id: ids[k], polygons: parts))
                k += 1
            }
        }
        if let second = pendingSecondPart { areas.append(IndexedArea(id: ids[k], polygons: [second])) }
        self.areas = areas
        self.vertices = vertices
        self.holeCentres = holeCentres
        self.box = BoundingBox(west: x0, south: y0, east: x0 + Double(n) * step, north: y0 + Double(n) * step)
    }
}

/// The reference answer: the first area in index order that GEOS's prepared `covers` accepts.
final class GEOSReference {
    let prepared: [GEOSPreparedGeometry]

    init(_ index: AreaIndex) {
        let context = GEOSContext()
        prepared = index.areas.map { try! context.geometry($0.geometry).prepared() }
    }

    func locate(_ lon: Double, _ lat: Double) -> Int? {
        prepared.firstIndex { try! $0.covers(lon: lon, lat: lat) }
    }
}

/// A random point, polygon (some with a hole) or multipolygon, as the store holds them.
func randomGeometry(_ rng: inout some RandomNumberGenerator) throws -> Geometry {
    func ring(_ cx: Double, _ cy: Double, _ r: Double) throws -> [Position] {
        let n = Int.random(in: 3...12, using: &rng)
        var ps = try (0..<n).map { i -> Position in
            let a = Double(i) / Double(n) * 2 * .pi
            let rr = r * Double.random(in: 0.6...1, using: &rng)
            return try Position(lon: cx + rr * cos(a), lat: cy + rr * sin(a))
        }
        ps.append(ps[0])
        return ps
    }
    func polygon() throws -> Polygon {
        let cx = Double.random(in: -170...170, using: &rng), cy = Double.random(in: -80...80, using: &rng)
        let r = Double.random(in: 1e-6...5, using: &rng)
        return try Polygon(rings: Bool.random(using: &rng) ? [try ring(cx, cy, r), try ring(cx, cy, r / 4)] : [try ring(cx, cy, r)])
    }
    switch Int.random(in: 0..<3, using: &rng) {
    case 0: return .point(try Position(lon: Double.random(in: -180...180, using: &rng), lat: Double.random(in: -90...90, using: &rng)))
    case 1: return .polygon(try polygon())
    default: return .multiPolygon(try (0..<Int.random(in: 1...4, using: &rng)).map { _ in try polygon() })
    }
}
