import GeoCore

extension TileLayer {
    /// Simplification tolerance at a zoom in unit Mercator coordinates: half a pixel of an
    /// `@2x` tile, so detail below what either scale can show is dropped and nothing visible is.
    public static func tolerance(zoom: Int) -> Double {
        0.5 / (Double(TileScale.x2.pixels) * Double(1 << zoom))
    }

    /// Every area simplified for a zoom with GEOS's topology-preserving simplifier, which keeps
    /// rings from collapsing or crossing. An area whose result is empty or invalid keeps its full
    /// geometry, so simplification can cost detail but never an area.
    func simplified(zoom: Int) -> [[PlanarPolygon]] {
        let tolerance = Self.tolerance(zoom: zoom)
        let context = GEOSContext()
        return full.map { polygons in
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
}
