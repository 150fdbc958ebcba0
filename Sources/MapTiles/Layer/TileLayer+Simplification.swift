import GeoCore
import Dispatch
import Foundation
import Synchronization

extension TileLayer {
    /// Simplification tolerance in unit Mercator coordinates: half a pixel of a tile of the
    /// zoom and scale, so detail the tile cannot show is dropped and nothing visible is.
    public static func tolerance(zoom: Int, scale: TileScale = .x1) -> Double {
        0.5 / (Double(scale.pixels) * Double(1 << zoom))
    }

    /// Every area's geometry for a tolerance. Shared borders are simplified once, as arcs, and
    /// both neighbours are assembled from the same result; an area whose assembled polygons GEOS
    /// finds invalid (or that has a ring below four points) is simplified on its own instead,
    /// and draws its own outline.
    /// - Parameter parallelFrom: the count of arcs or areas from which they are done on every
    ///   core (tests compare both ways).
    func simplified(tolerance: Double, parallelFrom: Int = parallelFrom) -> ZoomGeometry {
        let topology = topology
        var arcs = ArcSet()
        arcs.reserve(arcs: topology.arcs.count, points: topology.arcs.points.count / 4)
        for part in Self.inChunks(topology.arcs.count, from: parallelFrom, { range, context in
            topology.simplifiedArcs(range, tolerance: tolerance, context: context)
        }) { arcs.append(contentsOf: part) }
        let simplifiedArcs = arcs
        var polygons: [[PlanarPolygon]] = []
        var outlineArcs: [[Int32]?] = []
        polygons.reserveCapacity(topology.areaCount)
        outlineArcs.reserveCapacity(topology.areaCount)
        for part in Self.inChunks(topology.areaCount, from: parallelFrom, { range, context in
            var polygons: [[PlanarPolygon]] = []
            var outlineArcs: [[Int32]?] = []
            for i in range {
                let assembled = topology.polygons(ofArea: i, arcs: simplifiedArcs)
                if assembled.allSatisfy({ $0.rings.allSatisfy { $0.count >= 8 } }), Self.isValid(assembled, context) {
                    polygons.append(assembled)
                    outlineArcs.append(topology.outline(ofArea: i))
                } else {
                    // The full detail is kept only as arcs: the area's own rings, put together again.
                    polygons.append(Self.simplifiedAlone(topology.polygons(ofArea: i, arcs: topology.arcs), tolerance: tolerance, context))
                    outlineArcs.append(nil)
                }
            }
            return (polygons, outlineArcs)
        }) {
            polygons += part.0
            outlineArcs += part.1
        }
        return ZoomGeometry(areas: polygons, arcs: simplifiedArcs, outlineArcs: outlineArcs)
    }

    /// Items below this many are simplified on the calling thread alone: a campus layer's zoom
    /// takes milliseconds, less than waking other threads would.
    static let parallelFrom = 2_048

    /// Runs `body` over consecutive ranges of `0 ..< count` on every core, each range with a GEOS
    /// context of its own (a context is not to be shared between threads), and returns the
    /// results in range order, so the outcome is the same as one pass over the whole range. At
    /// 300,000 areas a zoom's simplification and validity checks were about a second on one core.
    static func inChunks<T: Sendable>(_ count: Int, from threshold: Int, _ body: @Sendable (Range<Int>, GEOSContext) -> T) -> [T] {
        guard count >= threshold else { return [body(0..<count, GEOSContext())] }
        let chunks = 4 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        let results = Mutex<[T?]>(Array(repeating: nil, count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let part = body((c * count / chunks)..<((c + 1) * count / chunks), GEOSContext())
            results.withLock { $0[c] = part }
        }
        return results.withLock { $0.map { $0! } }
    }

    private static func isValid(_ polygons: [PlanarPolygon], _ context: GEOSContext) -> Bool {
        do { return try context.geometry(planar: polygons).invalidity() == nil } catch { return false }
    }

    /// One area simplified with GEOS's topology-preserving simplifier, which keeps rings from
    /// collapsing or crossing; an empty or invalid result keeps the full geometry, so
    /// simplification can cost detail but never an area.
    private static func simplifiedAlone(_ polygons: [PlanarPolygon], tolerance: Double, _ context: GEOSContext) -> [PlanarPolygon] {
        do {
            let geometry = try context.geometry(planar: polygons)
            let simple = try geometry.simplified(tolerance: tolerance, preserveTopology: true)
            guard !simple.isEmpty, try simple.invalidity() == nil else { return polygons }
            let out = try simple.planarPolygons()
            return out.isEmpty ? polygons : out
        } catch {
            return polygons
        }
    }
}
