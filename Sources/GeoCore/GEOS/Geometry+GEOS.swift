import CGEOS
import DomainKernel

extension GEOSContext {
    /// Makes a GEOS geometry from a GeoJSON geometry value.
    public func geometry(_ g: Geometry) throws(GEOSError) -> GEOSGeometry {
        GEOSGeometry(context: self, owning: try makeRaw(g))
    }

    /// Returns an owned `GEOSGeometry*` (the caller destroys it or hands it to a GEOS constructor
    /// that takes ownership).
    private func makeRaw(_ g: Geometry) throws(GEOSError) -> OpaquePointer {
        switch g {
        case .point(let p):
            guard let out = GEOSGeom_createPointFromXY_r(handle, p.lon, p.lat) else { throw error("createPoint") }
            return out
        case .multiPoint(let ps):
            var parts: [OpaquePointer] = []
            for p in ps { parts.append(try makeRaw(.point(p))) }
            return try collection(GEOS_MULTIPOINT, parts)
        case .lineString(let ps):
            let seq = try sequence(ps)
            // createLineString takes ownership of the sequence, also on failure.
            guard let out = GEOSGeom_createLineString_r(handle, seq) else { throw error("createLineString") }
            return out
        case .multiLineString(let ls):
            var parts: [OpaquePointer] = []
            for l in ls { parts.append(try makeRaw(.lineString(l))) }
            return try collection(GEOS_MULTILINESTRING, parts)
        case .polygon(let p):
            return try polygon(p)
        case .multiPolygon(let ps):
            var parts: [OpaquePointer] = []
            for p in ps {
                do { parts.append(try polygon(p)) } catch {
                    parts.forEach { GEOSGeom_destroy_r(handle, $0) }
                    throw error
                }
            }
            return try collection(GEOS_MULTIPOLYGON, parts)
        case .geometryCollection(let gs):
            var parts: [OpaquePointer] = []
            for g in gs {
                do { parts.append(try makeRaw(g)) } catch {
                    parts.forEach { GEOSGeom_destroy_r(handle, $0) }
                    throw error
                }
            }
            return try collection(GEOS_GEOMETRYCOLLECTION, parts)
        }
    }

    private func sequence(_ ps: [Position]) throws(GEOSError) -> OpaquePointer {
        var flat: [Double] = []
        flat.reserveCapacity(ps.count * 2)
        for p in ps { flat.append(p.lon); flat.append(p.lat) }
        // copyFromBuffer_r copies the buffer and returns a new sequence, or NULL on exception.
        let seq = flat.withUnsafeBufferPointer { GEOSCoordSeq_copyFromBuffer_r(handle, $0.baseAddress, UInt32(ps.count), 0, 0) }
        guard let seq else { throw error("CoordSeq_copyFromBuffer") }
        return seq
    }

    private func ring(_ ps: [Position]) throws(GEOSError) -> OpaquePointer {
        let seq = try sequence(ps)
        // createLinearRing_r takes ownership of the sequence.
        guard let r = GEOSGeom_createLinearRing_r(handle, seq) else { throw error("createLinearRing") }
        return r
    }

    private func polygon(_ p: Polygon) throws(GEOSError) -> OpaquePointer {
        let shell = try ring(p.exterior)
        var holes: [OpaquePointer?] = []
        for h in p.holes {
            do { holes.append(try ring(h)) } catch {
                GEOSGeom_destroy_r(handle, shell)
                holes.forEach { GEOSGeom_destroy_r(handle, $0) }
                throw error
            }
        }
        // createPolygon_r takes ownership of the shell and the holes (not of the array).
        let holeCount = UInt32(holes.count)
        let out = holes.withUnsafeMutableBufferPointer {
            GEOSGeom_createPolygon_r(handle, shell, $0.baseAddress, holeCount)
        }
        guard let out else { throw error("createPolygon") }
        return out
    }

    /// A collection of `type` made of `parts`, taking ownership of the parts.
    func collection(_ type: GEOSGeomTypes, _ parts: [OpaquePointer]) throws(GEOSError) -> OpaquePointer {
        var parts = parts.map { Optional($0) }
        // createCollection_r takes ownership of the parts (not of the array).
        let partCount = UInt32(parts.count)
        let out = parts.withUnsafeMutableBufferPointer {
            GEOSGeom_createCollection_r(handle, Int32(type.rawValue), $0.baseAddress, partCount)
        }
        guard let out else { throw error("createCollection") }
        return out
    }
}

extension GEOSGeometry {
    /// Reads the geometry back as a GeoJSON value.
    /// Non-2D and empty parts are skipped; an empty geometry becomes an empty collection.
    public func value() throws(GEOSError) -> Geometry {
        try Self.value(of: pointer, context: context)
    }

    /// The polygonal parts only (Polygons of a collection or MultiPolygon), as polygons.
    public func polygonalParts() throws(GEOSError) -> [Polygon] {
        func collect(_ g: Geometry) -> [Polygon] {
            switch g {
            case .polygon(let p): return [p]
            case .multiPolygon(let ps): return ps
            case .geometryCollection(let gs): return gs.flatMap(collect)
            default: return []
            }
        }
        return collect(try value())
    }

    private static func value(of g: OpaquePointer, context: GEOSContext) throws(GEOSError) -> Geometry {
        let h = context.handle
        let type = GEOSGeomTypeId_r(h, g)
        switch UInt32(type) {
        case GEOS_POINT.rawValue:
            let ps = try positions(GEOSGeom_getCoordSeq_r(h, g), context: context)
            return ps.isEmpty ? .geometryCollection([]) : .point(ps[0])
        case GEOS_LINESTRING.rawValue, GEOS_LINEARRING.rawValue:
            return .lineString(try positions(GEOSGeom_getCoordSeq_r(h, g), context: context))
        case GEOS_POLYGON.rawValue:
            return .polygon(try polygon(g, context: context))
        case GEOS_MULTIPOINT.rawValue, GEOS_MULTILINESTRING.rawValue, GEOS_MULTIPOLYGON.rawValue, GEOS_GEOMETRYCOLLECTION.rawValue:
            var parts: [Geometry] = []
            let n = GEOSGetNumGeometries_r(h, g)
            for i in 0..<max(n, 0) {
                // GetGeometryN_r returns a borrowed part.
                guard let part = GEOSGetGeometryN_r(h, g, i) else { throw context.error("GetGeometryN") }
                if GEOSisEmpty_r(h, part) == 1 { continue }
                parts.append(try value(of: part, context: context))
            }
            switch UInt32(type) {
            case GEOS_MULTIPOINT.rawValue: return .multiPoint(parts.compactMap { if case .point(let p) = $0 { p } else { nil } })
            case GEOS_MULTILINESTRING.rawValue: return .multiLineString(parts.compactMap { if case .lineString(let l) = $0 { l } else { nil } })
            case GEOS_MULTIPOLYGON.rawValue: return .multiPolygon(parts.compactMap { if case .polygon(let p) = $0 { p } else { nil } })
            default: return .geometryCollection(parts)
            }
        default:
            throw GEOSError(operation: "read geometry", message: "unsupported geometry type \(type)")
        }
    }

    private static func polygon(_ g: OpaquePointer, context: GEOSContext) throws(GEOSError) -> Polygon {
        let h = context.handle
        // Rings are borrowed from the polygon.
        guard let shell = GEOSGetExteriorRing_r(h, g) else { throw context.error("GetExteriorRing") }
        var rings = [try positions(GEOSGeom_getCoordSeq_r(h, shell), context: context)]
        let holes = GEOSGetNumInteriorRings_r(h, g)
        for i in 0..<max(holes, 0) {
            guard let ring = GEOSGetInteriorRingN_r(h, g, i) else { throw context.error("GetInteriorRingN") }
            rings.append(try positions(GEOSGeom_getCoordSeq_r(h, ring), context: context))
        }
        return Polygon(trustedRings: rings)
    }

    private static func positions(_ seq: OpaquePointer?, context: GEOSContext) throws(GEOSError) -> [Position] {
        guard let seq else { throw context.error("getCoordSeq") }
        var size: UInt32 = 0
        guard GEOSCoordSeq_getSize_r(context.handle, seq, &size) != 0 else { throw context.error("CoordSeq_getSize") }
        var flat = [Double](repeating: 0, count: Int(size) * 2)
        let ok = flat.withUnsafeMutableBufferPointer { GEOSCoordSeq_copyToBuffer_r(context.handle, seq, $0.baseAddress, 0, 0) }
        guard ok != 0 else { throw context.error("CoordSeq_copyToBuffer") }
        return (0..<Int(size)).map { Position(trusted: flat[2 * $0], flat[2 * $0 + 1]) }
    }
}
