import DomainKernel

/// An area as the index holds it: its id and its GEOS-validated polygonal geometry.
public struct IndexedArea: Hashable, Sendable {
    /// The area's id, unique in its layer.
    public let id: String
    /// The polygons of the area (holes and several parts allowed).
    public let polygons: [Polygon]
    /// Bounding box of all parts.
    public let boundingBox: BoundingBox

    /// Creates an area. The polygons must be valid (as `AreaValidator` leaves them).
    public init(id: String, polygons: [Polygon]) {
        self.id = id
        self.polygons = polygons
        var box: BoundingBox?
        for p in polygons {
            for q in p.exterior {
                if box == nil { box = BoundingBox(west: q.lon, south: q.lat, east: q.lon, north: q.lat) } else { box!.extend(lon: q.lon, lat: q.lat) }
            }
        }
        self.boundingBox = box ?? BoundingBox(west: 0, south: 0, east: 0, north: 0)
    }

    /// The area as a GeoJSON geometry: a Polygon for one part, a MultiPolygon otherwise.
    public var geometry: Geometry {
        polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(polygons)
    }
}
