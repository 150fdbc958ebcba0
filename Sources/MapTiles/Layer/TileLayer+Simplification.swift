import GeoCore

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
        assembled(simplifiedArcs(tolerance: tolerance, parallelFrom: parallelFrom), tolerance: tolerance, parallelFrom: parallelFrom)
    }

    /// The shared borders simplified for a tolerance, each with GEOS's topology-preserving
    /// simplifier.
    func simplifiedArcs(tolerance: Double, parallelFrom: Int = parallelFrom) -> ArcSet {
        let topology = topology
        var arcs = ArcSet()
        arcs.reserve(arcs: topology.arcs.count, points: topology.arcs.points.count / 4)
        for part in PlanarSimplifier.inChunks(topology.arcs.count, from: parallelFrom, { range, simplifier in
            topology.simplifiedArcs(range, tolerance: tolerance, simplifier: simplifier)
        }) { arcs.append(contentsOf: part) }
        return arcs
    }

    /// Every area put together from simplified arcs, each checked by GEOS (see `simplified`).
    func assembled(_ simplifiedArcs: ArcSet, tolerance: Double, parallelFrom: Int = parallelFrom) -> ZoomGeometry {
        let topology = topology
        var polygons: [[PlanarPolygon]] = []
        var outlineArcs: [[Int32]?] = []
        polygons.reserveCapacity(topology.areaCount)
        outlineArcs.reserveCapacity(topology.areaCount)
        for part in PlanarSimplifier.inChunks(topology.areaCount, from: parallelFrom, { range, simplifier in
            var polygons: [[PlanarPolygon]] = []
            var outlineArcs: [[Int32]?] = []
            for i in range {
                let assembled = topology.polygons(ofArea: i, arcs: simplifiedArcs)
                if assembled.allSatisfy({ $0.rings.allSatisfy { $0.count >= 8 } }), simplifier.isValid(assembled) {
                    polygons.append(assembled)
                    outlineArcs.append(topology.outline(ofArea: i))
                } else {
                    // The full detail is kept only as arcs: the area's own rings, put together again.
                    polygons.append(simplifier.simplified(topology.polygons(ofArea: i, arcs: topology.arcs), tolerance: tolerance))
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

    /// Every area at full detail: its own rings put together from the unsimplified arcs. These
    /// are the valid rings the layer was imported with, so nothing is asked of GEOS (at 300,000
    /// areas checking each again took most of a second).
    func fullDetail() -> ZoomGeometry {
        let topology = topology
        var polygons: [[PlanarPolygon]] = []
        var outlineArcs: [[Int32]?] = []
        polygons.reserveCapacity(topology.areaCount)
        outlineArcs.reserveCapacity(topology.areaCount)
        for i in 0..<topology.areaCount {
            polygons.append(topology.polygons(ofArea: i, arcs: topology.arcs))
            outlineArcs.append(topology.outline(ofArea: i))
        }
        return ZoomGeometry(areas: polygons, arcs: topology.arcs, outlineArcs: outlineArcs)
    }

    /// Items below this many are simplified on the calling thread alone: a campus layer's zoom
    /// takes milliseconds, less than waking other threads would. At 300,000 areas a zoom's
    /// simplification and validity checks were about a second on one core.
    static let parallelFrom = 2_048
}
