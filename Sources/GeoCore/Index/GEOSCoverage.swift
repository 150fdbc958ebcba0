import Synchronization

/// GEOS prepared `covers` tests for the areas of one index: the reference every fast answer
/// agrees with, and the judge of the rare points the grid cannot decide.
///
/// Not `Sendable`: it owns a GEOS context and prepared geometries, which build their internal
/// indexes lazily (libgeos/geos#825). Each worker uses its own.
final class GEOSCoverage {
    private let context = GEOSContext()
    private let areas: [IndexedArea]
    private var prepared: [Int: GEOSPreparedGeometry] = [:]

    init(areas: [IndexedArea]) {
        self.areas = areas
    }

    /// Whether area `i` covers the point (interior or boundary), per GEOS.
    ///
    /// A GEOS failure on a valid area and a point is not expected; it answers "not covered",
    /// which leaves the point unassigned rather than assigning it wrongly.
    func covers(area i: Int, lon: Double, lat: Double) -> Bool {
        if prepared[i] == nil {
            guard let g = try? context.geometry(areas[i].geometry), let p = try? g.prepared() else { return false }
            prepared[i] = p
        }
        return (try? prepared[i]!.covers(lon: lon, lat: lat)) ?? false
    }
}

/// A pool of `GEOSCoverage` workers for single-point queries from many tasks.
///
/// Each caller takes a worker out, uses it alone, and puts it back; a worker is therefore never
/// used by two threads at once. Workers are created on demand, so a pool that is never needed
/// costs nothing.
final class GEOSCoveragePool: Sendable {
    private let areas: [IndexedArea]
    private let idle = Mutex<[GEOSCoverageBox]>([])

    init(areas: [IndexedArea]) {
        self.areas = areas
    }

    func covers(area i: Int, lon: Double, lat: Double) -> Bool {
        let box = idle.withLock { $0.popLast() } ?? GEOSCoverageBox(GEOSCoverage(areas: areas))
        let answer = box.coverage.covers(area: i, lon: lon, lat: lat)
        idle.withLock { $0.append(box) }
        return answer
    }
}

/// Carries a worker in and out of the pool.
///
/// `@unchecked Sendable` is sound because a box is reachable by exactly one thread at a time:
/// it is either in the pool's mutex-protected array or held by the single caller that took it
/// out, never both.
final class GEOSCoverageBox: @unchecked Sendable {
    let coverage: GEOSCoverage
    init(_ coverage: GEOSCoverage) { self.coverage = coverage }
}
