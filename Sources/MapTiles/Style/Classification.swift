/// How values are cut into classes. Class `k` holds values `v` with
/// `breaks[k − 1] ≤ v < breaks[k]` (the first class is open below, the last open above), the
/// rule Mapnik filters such as `[count] >= a and [count] < b` express.
public enum Classification: Hashable, Sendable, Codable {
    /// Breaks given by the publisher (ascending; `n` breaks make `n + 1` classes).
    case fixedBreaks([Double])
    /// Breaks at the quantiles of the values: `breaks[k − 1] = sorted[k·n / classes]`.
    case quantiles(classes: Int)
    /// Breaks equally spaced between the smallest and the largest value.
    case equalInterval(classes: Int)

    /// Number of classes this classification makes.
    public var classCount: Int {
        switch self {
        case .fixedBreaks(let b): return b.count + 1
        case .quantiles(let n), .equalInterval(let n): return max(n, 1)
        }
    }

    /// The class breaks for a set of values (suppressed and missing values are not part of it).
    public func breaks(for values: [Double]) -> [Double] {
        switch self {
        case .fixedBreaks(let b):
            return b.sorted()
        case .quantiles(let n):
            guard n > 1, !values.isEmpty else { return [] }
            let sorted = values.sorted()
            return (1..<n).map { sorted[min($0 * sorted.count / n, sorted.count - 1)] }
        case .equalInterval(let n):
            guard n > 1, let lo = values.min(), let hi = values.max() else { return [] }
            return (1..<n).map { lo + (hi - lo) * Double($0) / Double(n) }
        }
    }

    /// The class of a value given breaks: the number of breaks at or below it.
    public static func classIndex(of value: Double, breaks: [Double]) -> Int {
        var lo = 0, hi = breaks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if value >= breaks[mid] { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
