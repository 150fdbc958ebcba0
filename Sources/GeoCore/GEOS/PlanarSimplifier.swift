import Dispatch
import Foundation
import Synchronization

/// GEOS's topology-preserving simplification and validity check for planar geometry (tiles'
/// unit Mercator), so a caller outside GeoCore never holds a GEOS context: one simplifier
/// belongs to one thread, and `inChunks` hands each thread its own.
public struct PlanarSimplifier {
    private let context: GEOSContext

    private init(context: GEOSContext) {
        self.context = context
    }

    /// Runs `body` over consecutive ranges of `0 ..< count` on every core, each range with a
    /// simplifier of its own (a GEOS context is not to be shared between threads), and returns
    /// the results in range order, so the outcome is the same as one pass over the whole range.
    /// Below `threshold` items the calling thread does it alone.
    public static func inChunks<T: Sendable>(_ count: Int, from threshold: Int, _ body: @Sendable (Range<Int>, PlanarSimplifier) -> T) -> [T] {
        guard count >= threshold else { return [body(0..<count, PlanarSimplifier(context: GEOSContext()))] }
        let chunks = 4 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        let results = Mutex<[T?]>(Array(repeating: nil, count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let part = body((c * count / chunks)..<((c + 1) * count / chunks), PlanarSimplifier(context: GEOSContext()))
            results.withLock { $0[c] = part }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// Whether GEOS finds the polygons, as one multipolygon, valid.
    public func isValid(_ polygons: [PlanarPolygon]) -> Bool {
        do { return try context.geometry(planar: polygons).invalidity() == nil } catch { return false }
    }

    /// The polygons simplified with GEOS's topology-preserving simplifier, which keeps rings from
    /// collapsing or crossing; an empty or invalid result keeps the full geometry, so
    /// simplification can cost detail but never an area.
    public func simplified(_ polygons: [PlanarPolygon], tolerance: Double) -> [PlanarPolygon] {
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

    /// A line (flat `x, y` pairs) simplified with its end points kept, or nil when GEOS cannot.
    public func simplifiedLine(_ flat: [Double], tolerance: Double) -> [Double]? {
        try? context.simplifiedLine(flat, tolerance: tolerance)
    }
}
