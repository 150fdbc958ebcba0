import Testing
@testable import GeoCore

@Suite("certified orientation")
struct OrientationTests {
    @Test("signs of clear turns")
    func clearTurns() {
        #expect(certifiedOrientation(0, 0, 1, 0, 0, 1) > 0)
        #expect(certifiedOrientation(0, 0, 0, 1, 1, 0) < 0)
    }

    @Test("collinear and nearly collinear points are undecided, never a wrong sign")
    func undecided() {
        #expect(certifiedOrientation(0, 0, 1, 1, 2, 2) == 0)
        // c is 1 ulp off the line through a and b: too close for plain doubles to be trusted.
        let y = (0.1 * 3).nextUp
        let o = certifiedOrientation(0, 0, 0.1, 0.1, 0.3, y)
        #expect(o == 0 || o > 0)
    }
}
