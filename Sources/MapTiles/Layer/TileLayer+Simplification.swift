import GeoCore

extension TileLayer {
    /// Simplification tolerance in unit Mercator coordinates: half a pixel of a tile of the
    /// zoom and scale, so detail the tile cannot show is dropped and nothing visible is.
    public static func tolerance(zoom: Int, scale: TileScale = .x1) -> Double {
        0.5 / (Double(scale.pixels) * Double(1 << zoom))
    }

    /// Every area simplified with GEOS's topology-preserving simplifier, which keeps
    /// rings from collapsing or crossing. An area whose result is empty or invalid keeps its full
    /// geometry, so simplification can cost detail but never an area.
    func simplified(tolerance: Double) -> [[PlanarPolygon]] {
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
