import DomainKernel

extension IndexedArea {
    /// A point inside each area (`GEOSPointOnSurface_r`), by position; nil for an area GEOS finds
    /// none for. One GEOS context serves the whole list, so callers never hold GEOS themselves.
    public static func interiorPoints(of areas: [IndexedArea]) -> [Position?] {
        let context = GEOSContext()
        return areas.map { area in
            guard let p = try? context.geometry(area.geometry).pointOnSurface() else { return nil }
            return try? Position(lon: p.lon, lat: p.lat)
        }
    }
}
