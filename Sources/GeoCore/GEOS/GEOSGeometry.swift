import CGEOS

/// Owns one `GEOSGeometry*` and destroys it exactly once.
///
/// Keeps its context alive. Geometries borrowed from it (rings, parts) are read inside its
/// lifetime only and never destroyed separately.
public final class GEOSGeometry {
    let context: GEOSContext
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`, which must have been created with `context`.
    init(context: GEOSContext, owning pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
    }

    deinit {
        GEOSGeom_destroy_r(context.handle, pointer)
    }

    /// `GEOSGeomTypeId_r`.
    var typeID: Int32 { GEOSGeomTypeId_r(context.handle, pointer) }

    /// `GEOSisEmpty_r` (1 empty, 0 not, 2 exception; an exception counts as empty).
    public var isEmpty: Bool { GEOSisEmpty_r(context.handle, pointer) != 0 }

    /// `GEOSArea_r` in square degrees (returns 1 on success).
    public var area: Double {
        var a = 0.0
        _ = GEOSArea_r(context.handle, pointer, &a)
        return a
    }

    /// Result of `GEOSisValidDetail_r`: nil when valid, otherwise the reason and location.
    public struct Invalidity: Equatable, Sendable {
        public let reason: String
        public let location: (lon: Double, lat: Double)?
        public static func == (a: Invalidity, b: Invalidity) -> Bool {
            a.reason == b.reason && a.location?.lon == b.location?.lon && a.location?.lat == b.location?.lat
        }
    }

    /// Why GEOS finds the geometry invalid, or nil when it is valid.
    /// Wraps `GEOSisValidDetail_r` (returns 1 valid, 0 invalid, 2 exception; the reason string is
    /// freed with `GEOSFree_r`, the location geometry is ours to destroy).
    public func invalidity() throws(GEOSError) -> Invalidity? {
        var reason: UnsafeMutablePointer<CChar>?
        var location: OpaquePointer?
        let r = GEOSisValidDetail_r(context.handle, pointer, 0, &reason, &location)
        defer {
            if let reason { GEOSFree_r(context.handle, reason) }
            if let location { GEOSGeom_destroy_r(context.handle, location) }
        }
        switch r {
        case 1: return nil
        case 0:
            var at: (Double, Double)?
            if let location {
                var x = 0.0, y = 0.0
                if GEOSGeomGetX_r(context.handle, location, &x) == 1, GEOSGeomGetY_r(context.handle, location, &y) == 1 {
                    at = (x, y)
                }
            }
            return Invalidity(reason: reason.map { String(cString: $0) } ?? "invalid", location: at)
        default:
            throw context.error("isValidDetail")
        }
    }

    /// Repairs the geometry with `GEOSMakeValidWithParams_r`, the structure method, dropping
    /// collapsed parts (returns a new geometry or NULL on exception).
    public func madeValid() throws(GEOSError) -> GEOSGeometry {
        let h = context.handle
        guard let params = GEOSMakeValidParams_create_r(h) else { throw context.error("MakeValidParams_create") }
        defer { GEOSMakeValidParams_destroy_r(h, params) }
        _ = GEOSMakeValidParams_setMethod_r(h, params, GEOS_MAKE_VALID_STRUCTURE)
        _ = GEOSMakeValidParams_setKeepCollapsed_r(h, params, 0)
        guard let out = GEOSMakeValidWithParams_r(h, pointer, params) else { throw context.error("MakeValid") }
        return GEOSGeometry(context: context, owning: out)
    }

    /// `GEOSSimplify_r` (Douglas-Peucker, may produce invalid output) or, when
    /// `preserveTopology`, `GEOSTopologyPreserveSimplify_r`; both return a new geometry or NULL.
    public func simplified(tolerance: Double, preserveTopology: Bool = true) throws(GEOSError) -> GEOSGeometry {
        let out = preserveTopology
            ? GEOSTopologyPreserveSimplify_r(context.handle, pointer, tolerance)
            : GEOSSimplify_r(context.handle, pointer, tolerance)
        guard let out else { throw context.error("Simplify") }
        return GEOSGeometry(context: context, owning: out)
    }

    /// `GEOSPointOnSurface_r`: a point guaranteed to lie in the interior of an area.
    public func pointOnSurface() throws(GEOSError) -> (lon: Double, lat: Double) {
        guard let p = GEOSPointOnSurface_r(context.handle, pointer) else { throw context.error("PointOnSurface") }
        defer { GEOSGeom_destroy_r(context.handle, p) }
        var x = 0.0, y = 0.0
        guard GEOSGeomGetX_r(context.handle, p, &x) == 1, GEOSGeomGetY_r(context.handle, p, &y) == 1 else {
            throw context.error("GeomGetX/Y")
        }
        return (x, y)
    }

    /// Prepares the geometry for repeated predicates. The prepared geometry keeps this one alive.
    public func prepared() throws(GEOSError) -> GEOSPreparedGeometry {
        // GEOSPrepare_r returns NULL on exception; the prepared geometry borrows `pointer`.
        guard let p = GEOSPrepare_r(context.handle, pointer) else { throw context.error("Prepare") }
        return GEOSPreparedGeometry(base: self, owning: p)
    }
}

/// Owns a `GEOSPreparedGeometry*` and the geometry it was prepared from.
///
/// Prepared geometries build their indexes lazily on first use and are therefore not safe to
/// share between threads; this class is not `Sendable` and each worker holds its own.
public final class GEOSPreparedGeometry {
    let base: GEOSGeometry
    let pointer: OpaquePointer

    init(base: GEOSGeometry, owning pointer: OpaquePointer) {
        self.base = base
        self.pointer = pointer
    }

    deinit {
        GEOSPreparedGeom_destroy_r(base.context.handle, pointer)
    }

    /// Whether the geometry covers the point (interior or boundary): `GEOSPreparedCovers_r`
    /// (returns 1 true, 0 false, 2 exception) with a point made by `GEOSGeom_createPointFromXY_r`.
    public func covers(lon: Double, lat: Double) throws(GEOSError) -> Bool {
        let h = base.context.handle
        guard let point = GEOSGeom_createPointFromXY_r(h, lon, lat) else { throw base.context.error("createPointFromXY") }
        defer { GEOSGeom_destroy_r(h, point) }
        switch GEOSPreparedCovers_r(h, pointer, point) {
        case 1: return true
        case 0: return false
        default: throw base.context.error("PreparedCovers")
        }
    }

    /// Whether the point lies in the interior: `GEOSPreparedContainsProperly_r` would exclude
    /// more than the boundary for areas, so this uses `GEOSPreparedContains_r` (1, 0, 2 exception).
    public func contains(lon: Double, lat: Double) throws(GEOSError) -> Bool {
        let h = base.context.handle
        guard let point = GEOSGeom_createPointFromXY_r(h, lon, lat) else { throw base.context.error("createPointFromXY") }
        defer { GEOSGeom_destroy_r(h, point) }
        switch GEOSPreparedContains_r(h, pointer, point) {
        case 1: return true
        case 0: return false
        default: throw base.context.error("PreparedContains")
        }
    }
}
