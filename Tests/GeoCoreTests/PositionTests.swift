import DomainKernel
@testable import GeoCore
import Testing

@Suite("Positions")
struct PositionTests {
    @Test("a position takes 24 bytes, and compares and hashes by longitude, latitude and altitude as before")
    func layoutAndEquality() throws {
        // 32 with `altitude: Double?`; a layer holds millions of them.
        #expect(MemoryLayout<Position>.stride == 24)
        let flat = try Position(lon: 1.5, lat: -2.25)
        let zero = try Position(lon: 1.5, lat: -2.25, altitude: 0)
        let high = try Position(lon: 1.5, lat: -2.25, altitude: 120.5)
        #expect(flat.altitude == nil && zero.altitude == 0 && high.altitude == 120.5)
        #expect(flat == (try Position(lon: 1.5, lat: -2.25)))
        #expect(flat != zero && zero != high)
        #expect(Set([flat, zero, high, try Position(lon: 1.5, lat: -2.25), try Position(lon: 1.5, lat: -2.25, altitude: 0)]).count == 3)
        #expect(Position(trusted: 1.5, -2.25) == flat)
        #expect(throws: Position.Problem.notFinite) { try Position(lon: 0, lat: 0, altitude: .nan) }
        #expect(throws: Position.Problem.notFinite) { try Position(lon: 0, lat: 0, altitude: .infinity) }
    }
}
