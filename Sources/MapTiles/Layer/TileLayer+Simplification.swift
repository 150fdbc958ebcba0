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
    func simplified(tolerance: Double) -> ZoomGeometry {
        let context = GEOSContext()
        let arcs = topology.simplifiedArcs(tolerance: tolerance, context: context)
        var polygons: [[PlanarPolygon]] = []
        var outlineArcs: [[Int32]?] = []
        polygons.reserveCapacity(topology.areaCount)
        for i in 0..<topology.areaCount {
            let assembled = topology.polygons(ofArea: i, arcs: arcs)
            if assembled.allSatisfy({ $0.rings.allSatisfy { $0.count >= 8 } }), Self.isValid(assembled, context) {
                polygons.append(assembled)
                outlineArcs.append(topology.outline(ofArea: i))
            } else {
                // The full detail is kept only as arcs: the area's own rings, put together again.
                polygons.append(Self.simplifiedAlone(topology.polygons(ofArea: i, arcs: topology.arcs), tolerance: tolerance, context))
                outlineArcs.append(nil)
            }
        }
        return ZoomGeometry(areas: polygons, arcs: arcs, outlineArcs: outlineArcs)
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
