/// Orientation of three points with a certified sign, after Shewchuk's `orient2d` fast filter
/// ("Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997).
///
/// Returns a value whose sign is the exact sign of the determinant
/// `(a - c) × (b - c)` (positive when a, b, c turn counterclockwise), or exactly 0 when the
/// floating-point evaluation cannot certify the sign — the three points are collinear or so
/// nearly so that only exact arithmetic could tell. Callers treat 0 as "undecided" and hand the
/// question to GEOS, so every decided answer equals GEOS's robust one.
@inline(__always)
func certifiedOrientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
    let detLeft = (ax - cx) * (by - cy)
    let detRight = (ay - cy) * (bx - cx)
    let det = detLeft - detRight
    let detSum: Double
    if detLeft > 0 {
        if detRight <= 0 { return det }
        detSum = detLeft + detRight
    } else if detLeft < 0 {
        if detRight >= 0 { return det }
        detSum = -detLeft - detRight
    } else {
        return det
    }
    // ccwerrboundA = (3 + 16ε)ε with ε = 2^-53.
    let errBound = 3.3306690738754716e-16 * detSum
    if det >= errBound || -det >= errBound { return det }
    return 0
}
