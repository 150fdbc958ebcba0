import CGEOS

extension GEOSContext {
    /// Makes a GEOS MultiPolygon from planar polygons (one area's parts).
    public func geometry(planar polygons: [PlanarPolygon]) throws(GEOSError) -> GEOSGeometry {
        var parts: [OpaquePointer] = []
        parts.reserveCapacity(polygons.count)
        for p in polygons {
            do { parts.append(try planarPolygon(p)) } catch {
                parts.forEach { GEOSGeom_destroy_r(handle, $0) }
                throw error
            }
        }
        // collection hands the parts to GEOS, which owns them from then on.
        return GEOSGeometry(context: self, owning: try collection(GEOS_MULTIPOLYGON, parts))
    }

    /// An owned `GEOSGeometry*` polygon (the caller destroys it or hands it on).
    private func planarPolygon(_ p: PlanarPolygon) throws(GEOSError) -> OpaquePointer {
        var rings: [OpaquePointer] = []
        for flat in p.rings {
            // copyFromBuffer_r copies the buffer and returns a new sequence, or NULL on exception.
            let seq = flat.withUnsafeBufferPointer {
                GEOSCoordSeq_copyFromBuffer_r(handle, $0.baseAddress, UInt32(flat.count / 2), 0, 0)
            }
            // createLinearRing_r takes ownership of the sequence and returns NULL on exception.
            guard let seq, let ring = GEOSGeom_createLinearRing_r(handle, seq) else {
                rings.forEach { GEOSGeom_destroy_r(handle, $0) }
                throw error("createLinearRing")
            }
            rings.append(ring)
        }
        guard let shell = rings.first else { throw GEOSError(operation: "createPolygon", message: "no rings") }
        var holes = rings.dropFirst().map { Optional($0) }
        // createPolygon_r takes ownership of the shell and the holes (not of the array).
        let holeCount = UInt32(holes.count)
        let out = holes.withUnsafeMutableBufferPointer {
            GEOSGeom_createPolygon_r(handle, shell, $0.baseAddress, holeCount)
        }
        guard let out else { throw error("createPolygon") }
        return out
    }
}

extension GEOSGeometry {
    /// The polygonal parts as planar polygons; empty parts are skipped. Everything read is
    /// borrowed from this geometry and copied out.
    public func planarPolygons() throws(GEOSError) -> [PlanarPolygon] {
        let h = context.handle
        var out: [PlanarPolygon] = []
        func collect(_ g: OpaquePointer) throws(GEOSError) {
            if GEOSisEmpty_r(h, g) == 1 { return }
            switch UInt32(GEOSGeomTypeId_r(h, g)) {
            case GEOS_POLYGON.rawValue:
                // Rings are borrowed from the polygon.
                guard let shell = GEOSGetExteriorRing_r(h, g) else { throw context.error("GetExteriorRing") }
                var rings = [try Self.flatCoordinates(of: shell, context: context)]
                for i in 0..<max(GEOSGetNumInteriorRings_r(h, g), 0) {
                    guard let ring = GEOSGetInteriorRingN_r(h, g, i) else { throw context.error("GetInteriorRingN") }
                    rings.append(try Self.flatCoordinates(of: ring, context: context))
                }
                out.append(PlanarPolygon(rings: rings))
            case GEOS_MULTIPOLYGON.rawValue, GEOS_GEOMETRYCOLLECTION.rawValue:
                for i in 0..<max(GEOSGetNumGeometries_r(h, g), 0) {
                    // GetGeometryN_r returns a borrowed part.
                    guard let part = GEOSGetGeometryN_r(h, g, i) else { throw context.error("GetGeometryN") }
                    try collect(part)
                }
            default:
                return
            }
        }
        try collect(pointer)
        return out
    }
}
