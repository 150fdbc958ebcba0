import Foundation

/// Spherical Web Mercator (EPSG:3857) as XYZ map tiles use it.
public enum WebMercator {
    /// Latitude beyond which Web Mercator is cut off, so that the world is a square.
    public static let maxLatitude = 85.051128779806592

    /// Fractional world coordinates in [0, 1] × [0, 1], x eastward from 180° W, y southward from
    /// the northern cut-off.
    public static func unit(lon: Double, lat: Double) -> (x: Double, y: Double) {
        let φ = min(max(lat, -maxLatitude), maxLatitude) * .pi / 180
        let x = (lon + 180) / 360
        let y = (1 - log(tan(φ) + 1 / cos(φ)) / .pi) / 2
        return (x, y)
    }

    /// Longitude and latitude of fractional world coordinates.
    public static func lonLat(unitX x: Double, unitY y: Double) -> (lon: Double, lat: Double) {
        let lon = x * 360 - 180
        let n = Double.pi * (1 - 2 * y)
        let lat = atan(sinh(n)) * 180 / .pi
        return (lon, lat)
    }
}
