import Foundation

/// A cell of a fixed grid of roughly square cells about `size` metres on a side: the only
/// location a public search may match a report by.
///
/// Matching by the exact point lets an attacker binary-search a circle's edge; 137 requests pinned
/// a report to 0.00 m. Matching by the cell's centre makes every point of a cell answer every
/// search identically, so the best any sequence of searches can learn is the cell. Rows are equal
/// bands of latitude; each row's columns are widened by 1/cos(latitude) so cells stay square on
/// the ground (at 60° a cell still spans `size` metres east–west, not half of it).
public struct CoarseCell: Hashable, Sendable {
    public let row: Int
    public let column: Int
    public let size: Double

    /// Metres per degree of latitude on the sphere `greatCircleMetres` uses.
    static let metresPerDegree = 6_371_008.8 * .pi / 180

    public init(lon: Double, lat: Double, size: Double) {
        precondition(size > 0)
        self.size = size
        let latStep = size / Self.metresPerDegree
        row = Int((lat / latStep).rounded(.down))
        column = Int((lon / Self.lonStep(row: row, latStep: latStep)).rounded(.down))
    }

    /// The cell's centre, the point a public search measures its distance from.
    public var centre: (lon: Double, lat: Double) {
        let latStep = size / Self.metresPerDegree
        let lonStep = Self.lonStep(row: row, latStep: latStep)
        return ((Double(column) + 0.5) * lonStep, (Double(row) + 0.5) * latStep)
    }

    /// How far any point of a cell can lie from its centre (half the diagonal, with room for the
    /// widening of the row's southern or northern edge).
    public static func reach(size: Double) -> Double { size * 0.75 }

    private static func lonStep(row: Int, latStep: Double) -> Double {
        let middle = min(89.0, abs((Double(row) + 0.5) * latStep))
        return latStep / cos(middle * .pi / 180)
    }
}
