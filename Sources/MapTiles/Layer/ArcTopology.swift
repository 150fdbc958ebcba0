import GeoCore
import DomainKernel

/// The borders of a layer's areas as arcs: every ring cut at junctions (points where three or
/// more borders meet), each border shared by two areas stored once.
///
/// Simplifying arcs instead of areas gives both neighbours exactly the same simplified border,
/// so no slivers or overlaps open between them, and the outline of a tile can stroke each
/// border once instead of once per side (the TopoJSON idea).
struct ArcTopology: Sendable {
    /// One use of an arc in a ring.
    struct Use: Hashable, Sendable {
        let arc: Int32
        let reversed: Bool
    }

    /// Arcs at full detail; an arc of a ring without junctions is closed.
    let arcs: ArcSet
    /// Every ring's arcs in order, rings one after the other: ring r's are
    /// `uses[ringStarts[r] ..< ringStarts[r + 1]]`, polygon p's rings are
    /// `polygonStarts[p] ..< polygonStarts[p + 1]` (exterior first), area i's polygons
    /// `areaStarts[i] ..< areaStarts[i + 1]`. Flat, as the arcs are: at 300,000 areas nested
    /// arrays cost three allocations an area.
    let uses: [Use]
    let ringStarts: [Int32]
    let polygonStarts: [Int32]
    let areaStarts: [Int32]

    private struct Point: Hashable, Comparable {
        let x: UInt64, y: UInt64
        init(_ x: Double, _ y: Double) { self.x = x.bitPattern; self.y = y.bitPattern }
        /// Any total order: it only makes an arc's key the same in both directions.
        static func < (a: Point, b: Point) -> Bool { (a.x, a.y) < (b.x, b.y) }
    }

    /// What an arc is looked up by: its end points, in either direction, and its length.
    /// Hashing this instead of the whole point list (and a reversed copy of it) took the
    /// topology of 300,000 areas from about 5 s to about 3 s.
    private struct ArcKey: Hashable {
        let low: Point, high: Point
        let count: Int
    }

    /// A topology read back from its file.
    init(arcs: ArcSet, uses: [Use], ringStarts: [Int32], polygonStarts: [Int32], areaStarts: [Int32]) {
        self.arcs = arcs
        self.uses = uses
        self.ringStarts = ringStarts
        self.polygonStarts = polygonStarts
        self.areaStarts = areaStarts
    }

    /// The areas projected to unit Mercator coordinates, what the topology is found in.
    static func project(_ areas: [IndexedArea]) -> [[PlanarPolygon]] {
        areas.map { area in
            area.polygons.map { polygon in
                PlanarPolygon(rings: polygon.rings.map { ring in
                    var flat: [Double] = []
                    flat.reserveCapacity(ring.count * 2)
                    for p in ring {
                        let u = WebMercator.unit(lon: p.lon, lat: p.lat)
                        flat.append(u.x); flat.append(u.y)
                    }
                    return flat
                })
            }
        }
    }

    /// Finds the junctions and arcs of projected areas.
    init(full: [[PlanarPolygon]]) {
        // Every ring's points once (without the closing repeat), rings one after the other; ring
        // r is `ringPoints[ringBounds[r] ..< ringBounds[r + 1]]`. Polygons and areas count rings.
        var ringPoints: [Point] = [], ringBounds = [0]
        var polygonStarts: [Int32] = [0], areaStarts: [Int32] = [0]
        ringPoints.reserveCapacity(full.reduce(0) { $0 + $1.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count / 2 } } })
        for polygons in full {
            for polygon in polygons {
                for ring in polygon.rings {
                    let start = ringPoints.count
                    for k in stride(from: 0, to: ring.count - 1, by: 2) { ringPoints.append(Point(ring[k], ring[k + 1])) }
                    if ringPoints.count - start > 1 && ringPoints[start] == ringPoints[ringPoints.count - 1] { ringPoints.removeLast() }
                    ringBounds.append(ringPoints.count)
                }
                polygonStarts.append(Int32(ringBounds.count - 1))
            }
            areaStarts.append(Int32(polygonStarts.count - 1))
        }
        let junction = Self.junctions(ringPoints, ringBounds: ringBounds)
        var arcs = ArcSet()
        // Arcs by key, and per arc the next one with the same key (-1: none): two different
        // borders between one pair of junctions are rare, so the chains are short.
        // An arc starts at every junction a ring passes, and most are walked by two rings:
        // reserved so that the table is not grown and rehashed on the way.
        let expectedArcs = junction.reduce(0) { $0 + ($1 ? 1 : 0) } / 2 + full.count
        var firstWithKey: [ArcKey: Int32] = [:]
        firstWithKey.reserveCapacity(expectedArcs)
        var nextWithKey: [Int32] = []
        nextWithKey.reserveCapacity(expectedArcs)
        func use(_ arc: [Point]) -> Use {
            let first = arc[0], last = arc[arc.count - 1]
            let key = ArcKey(low: min(first, last), high: max(first, last), count: arc.count)
            var i = firstWithKey[key] ?? -1
            while i >= 0 {
                let known = arcs[Int(i)]
                let base = known.startIndex
                if (0..<arc.count).allSatisfy({ Point(known[base + 2 * $0], known[base + 2 * $0 + 1]) == arc[$0] }) { return Use(arc: i, reversed: false) }
                let n = arc.count - 1
                if (0..<arc.count).allSatisfy({ Point(known[base + 2 * $0], known[base + 2 * $0 + 1]) == arc[n - $0] }) { return Use(arc: i, reversed: true) }
                i = nextWithKey[Int(i)]
            }
            let added = Int32(arcs.count)
            nextWithKey.append(firstWithKey[key] ?? -1)
            firstWithKey[key] = added
            var flat: [Double] = []
            flat.reserveCapacity(2 * arc.count)
            for p in arc { flat.append(Double(bitPattern: p.x)); flat.append(Double(bitPattern: p.y)) }
            arcs.append(flat)
            return Use(arc: added, reversed: false)
        }
        var uses: [Use] = []
        var ringStarts: [Int32] = [0]
        for r in 0..<(ringBounds.count - 1) {
            defer { ringStarts.append(Int32(uses.count)) }
            let base = ringBounds[r], n = ringBounds[r + 1] - base
            guard let start = (0..<n).first(where: { junction[base + $0] }) else {
                // No junction: the whole ring is one closed arc.
                uses.append(use(Array(ringPoints[base ..< base + n]) + [ringPoints[base]]))
                continue
            }
            var current = [ringPoints[base + start]]
            for k in 1...n {
                let i = base + (start + k) % n
                current.append(ringPoints[i])
                if junction[i] || k == n {
                    uses.append(use(current))
                    current = [ringPoints[i]]
                }
            }
        }
        self.arcs = arcs
        self.uses = uses
        self.ringStarts = ringStarts
        self.polygonStarts = polygonStarts
        self.areaStarts = areaStarts
    }

    /// For every ring point (`ringPoints`, rings bounded by `ringBounds`), whether it is a
    /// junction: a point with more than two distinct neighbours over all rings. Found by sorting
    /// the points rather than by a table keyed by point: at 300,000 areas (2.1 million ring
    /// points) the table's hashing and growth were the larger part of the topology's build.
    private static func junctions(_ ringPoints: [Point], ringBounds: [Int]) -> [Bool] {
        /// A ring point with its neighbours on the ring and its place among all ring points.
        struct Occurrence {
            let point: Point, previous: Point, next: Point
            let index: Int32
        }
        var occurrences: [Occurrence] = []
        occurrences.reserveCapacity(ringPoints.count)
        for r in 0..<(ringBounds.count - 1) {
            let base = ringBounds[r], n = ringBounds[r + 1] - base
            for i in 0..<n {
                occurrences.append(Occurrence(point: ringPoints[base + i], previous: ringPoints[base + (i + n - 1) % n],
                                              next: ringPoints[base + (i + 1) % n], index: Int32(base + i)))
            }
        }
        var junction = [Bool](repeating: false, count: occurrences.count)
        occurrences.sort { $0.point < $1.point }
        var neighbours: [Point] = []
        var lo = 0
        while lo < occurrences.count {
            var hi = lo + 1
            while hi < occurrences.count, occurrences[hi].point == occurrences[lo].point { hi += 1 }
            // A point shared by k ring passes has at most 2k neighbours; k is small (the areas
            // meeting at a corner), so a list beats a set.
            neighbours.removeAll(keepingCapacity: true)
            for o in occurrences[lo..<hi] {
                if !neighbours.contains(o.previous) { neighbours.append(o.previous) }
                if !neighbours.contains(o.next) { neighbours.append(o.next) }
            }
            if neighbours.count > 2 {
                for o in occurrences[lo..<hi] { junction[Int(o.index)] = true }
            }
            lo = hi
        }
        return junction
    }

    /// Number of areas.
    var areaCount: Int { areaStarts.count - 1 }

    /// The arcs outlining area `i`, every ring's in order.
    func outline(ofArea i: Int) -> [Int32] {
        let rings = Int(polygonStarts[Int(areaStarts[i])])..<Int(polygonStarts[Int(areaStarts[i + 1])])
        return uses[Int(ringStarts[rings.lowerBound]) ..< Int(ringStarts[rings.upperBound])].map(\.arc)
    }

    /// The arcs of `range` simplified with a tolerance, each with GEOS's topology-preserving simplifier
    /// (end points kept). An arc GEOS cannot simplify, or a closed arc that would fall below a
    /// ring's four points, keeps its full detail.
    func simplifiedArcs(_ range: Range<Int>, tolerance: Double, simplifier: PlanarSimplifier) -> ArcSet {
        var out = ArcSet()
        out.reserve(arcs: range.count, points: arcs.points.count / 4 * range.count / max(arcs.count, 1))
        for a in range {
            let arc = arcs[a]
            guard arc.count > 4, let simple = simplifier.simplifiedLine(Array(arc), tolerance: tolerance) else { out.append(arc); continue }
            let s = arc.startIndex, e = arc.endIndex
            let closed = arc[s] == arc[e - 2] && arc[s + 1] == arc[e - 1]
            if closed && simple.count < 8 { out.append(arc) } else { out.append(simple) }
        }
        return out
    }

    /// The polygons of an area assembled from (simplified) arcs; from `arcs` themselves, the
    /// area's own rings, each perhaps started at another point.
    func polygons(ofArea i: Int, arcs: ArcSet) -> [PlanarPolygon] {
        (Int(areaStarts[i])..<Int(areaStarts[i + 1])).map { p in
            PlanarPolygon(rings: (Int(polygonStarts[p])..<Int(polygonStarts[p + 1])).map { r in
                var ring: [Double] = []
                for u in uses[Int(ringStarts[r]) ..< Int(ringStarts[r + 1])] {
                    let a = arcs[Int(u.arc)]
                    let base = a.startIndex
                    let n = a.count / 2
                    // Each arc starts where the previous one ended: skip the repeated point.
                    let skip = ring.isEmpty ? 0 : 1
                    if u.reversed {
                        for k in stride(from: n - 1 - skip, through: 0, by: -1) { ring.append(a[base + 2 * k]); ring.append(a[base + 2 * k + 1]) }
                    } else {
                        for k in skip..<n { ring.append(a[base + 2 * k]); ring.append(a[base + 2 * k + 1]) }
                    }
                }
                return ring
            })
        }
    }
}
