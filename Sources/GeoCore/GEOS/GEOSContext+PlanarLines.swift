import CGEOS

extension GEOSContext {
    /// A planar line (flat `x, y` pairs) simplified with `GEOSTopologyPreserveSimplify_r`, which
    /// keeps both end points and never lets the line cross itself. Used for borders shared by
    /// two areas, so both get exactly the same simplified border.
    public func simplifiedLine(_ flat: [Double], tolerance: Double) throws(GEOSError) -> [Double] {
        // copyFromBuffer_r copies the buffer and returns a new sequence, or NULL on exception;
        // createLineString_r takes ownership of the sequence and returns NULL on exception.
        let seq = flat.withUnsafeBufferPointer {
            GEOSCoordSeq_copyFromBuffer_r(handle, $0.baseAddress, UInt32(flat.count / 2), 0, 0)
        }
        guard let seq, let line = GEOSGeom_createLineString_r(handle, seq) else { throw error("createLineString") }
        let simple = try GEOSGeometry(context: self, owning: line).simplified(tolerance: tolerance, preserveTopology: true)
        return try simple.lineCoordinates()
    }
}

extension GEOSGeometry {
    /// Flat `x, y` pairs of a LineString or LinearRing (copied out of GEOS).
    public func lineCoordinates() throws(GEOSError) -> [Double] {
        try Self.flatCoordinates(of: pointer, context: context)
    }

    /// Flat `x, y` pairs of a line or ring borrowed from a geometry made with `context`.
    static func flatCoordinates(of line: OpaquePointer, context: GEOSContext) throws(GEOSError) -> [Double] {
        let h = context.handle
        // getCoordSeq_r returns a sequence borrowed from the line.
        guard let seq = GEOSGeom_getCoordSeq_r(h, line) else { throw context.error("getCoordSeq") }
        var size: UInt32 = 0
        guard GEOSCoordSeq_getSize_r(h, seq, &size) != 0 else { throw context.error("CoordSeq_getSize") }
        var flat = [Double](repeating: 0, count: Int(size) * 2)
        // copyToBuffer_r returns 0 on exception.
        let ok = flat.withUnsafeMutableBufferPointer { GEOSCoordSeq_copyToBuffer_r(h, seq, $0.baseAddress, 0, 0) }
        guard ok != 0 else { throw context.error("CoordSeq_copyToBuffer") }
        return flat
    }
}
