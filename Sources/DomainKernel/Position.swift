/// A GeoJSON position: longitude and latitude in WGS 84 degrees, optionally an altitude.
///
/// The initialiser enforces the ranges RFC 7946 implies (|lon| ≤ 180, |lat| ≤ 90) and finiteness,
/// so every `Position` value is a valid one.
public struct Position: Hashable, Sendable {
    public let lon: Double
    public let lat: Double
    /// The altitude, NaN when there is none: a `Double?` would make a position 32 bytes instead
    /// of 24, and a layer of 300,000 areas holds about 2.4 million positions (19 MB more). No
    /// altitude can be NaN, since the initialiser refuses values that are not finite.
    private let altitudeOrNaN: Double

    public var altitude: Double? { altitudeOrNaN.isNaN ? nil : altitudeOrNaN }

    /// Why a coordinate pair cannot be a position.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case notFinite
        case longitudeOutOfRange(Double)
        case latitudeOutOfRange(Double)

        public var description: String {
            switch self {
            case .notFinite: return "coordinate is not a finite number"
            case .longitudeOutOfRange(let v): return "longitude \(v) is outside -180...180"
            case .latitudeOutOfRange(let v): return "latitude \(v) is outside -90...90"
            }
        }
    }

    /// Creates a checked position.
    /// - Throws: `Position.Problem` when a value is NaN or infinite, or outside its range.
    public init(lon: Double, lat: Double, altitude: Double? = nil) throws(Problem) {
        guard lon.isFinite, lat.isFinite, altitude?.isFinite ?? true else { throw .notFinite }
        guard (-180...180).contains(lon) else { throw .longitudeOutOfRange(lon) }
        guard (-90...90).contains(lat) else { throw .latitudeOutOfRange(lat) }
        self.lon = lon
        self.lat = lat
        self.altitudeOrNaN = altitude ?? .nan
    }

    /// Creates a position from values already known to be valid (e.g. read back from GEOS after
    /// an operation on valid input). Out-of-range values are a programming error.
    package init(trusted lon: Double, _ lat: Double) {
        self.lon = lon
        self.lat = lat
        self.altitudeOrNaN = .nan
    }

    // By value, as the synthesised ones were for `altitude: Double?` (NaN is never equal to itself).
    public static func == (a: Position, b: Position) -> Bool {
        a.lon == b.lon && a.lat == b.lat && a.altitude == b.altitude
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(lon)
        hasher.combine(lat)
        hasher.combine(altitude)
    }
}
