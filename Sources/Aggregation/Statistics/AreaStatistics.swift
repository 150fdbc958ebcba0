import DomainKernel

/// Raw, unreleased numbers of one area (or of the whole layer): these never leave the module
/// except through `DisclosureControl`.
public struct AreaStatistics: Sendable, Hashable {
    /// Verified counts per group (nil for reports without one) per segment.
    public var verified: [BreakdownGroup?: SegmentCounts]
    /// Pending counts per segment (all groups).
    public var pending: SegmentCounts
    /// Capacity or population for rates; nil when unknown.
    public var denominator: Double?

    /// Creates the numbers of one area.
    public init(verified: [BreakdownGroup?: SegmentCounts] = [:], pending: SegmentCounts = SegmentCounts(), denominator: Double? = nil) {
        self.verified = verified
        self.pending = pending
        self.denominator = denominator
    }

    /// Adds `other` times `factor` (−1 takes an area out of a total); the denominator stays.
    mutating func add(_ other: AreaStatistics, times factor: Int) {
        for (group, counts) in other.verified { verified[group, default: SegmentCounts()].add(counts, times: factor) }
        pending.add(other.pending, times: factor)
    }

    /// Verified counts per segment, all groups together.
    public var allGroups: SegmentCounts { verified.values.reduce(SegmentCounts(), +) }

    /// Verified reports in a window.
    public func count(_ window: Window) -> Int { allGroups.count(window) }

    /// Verified reports in the window before; nil for `all`.
    public func previous(_ window: Window) -> Int? { allGroups.previous(window) }

    /// Window count minus previous window count; nil for `all`.
    public func change(_ window: Window) -> Int? { previous(window).map { count(window) - $0 } }

    /// Pending reports in a window.
    public func pendingCount(_ window: Window) -> Int { pending.count(window) }

    /// Reports per 1,000 of the denominator; nil unless the denominator is known and positive.
    public func ratePer1000(_ window: Window) -> Double? {
        Self.rate(count: count(window), denominator: denominator)
    }

    /// `count` per 1,000 of `denominator`; nil unless the denominator is positive.
    public static func rate(count: Int, denominator: Double?) -> Double? {
        usable(denominator).map { perThousand(count, $0) }
    }

    /// How a released count becomes its released rate per 1,000 of `denominator`: shown exactly
    /// when the count is (a suppressed count's rate is suppressed with it). nil unless the
    /// denominator is positive: then there is no rate at all.
    static func releasedRate(denominator: Double?) -> ((Released<Int>) -> Released<Double>)? {
        usable(denominator).map { denominator in { count in count.map { perThousand($0, denominator) } } }
    }

    /// Whether a rate can be computed from `denominator`.
    static func hasUsableDenominator(_ denominator: Double?) -> Bool { usable(denominator) != nil }

    /// The denominator when it is positive and finite.
    private static func usable(_ denominator: Double?) -> Double? {
        guard let denominator, denominator > 0, denominator.isFinite else { return nil }
        return denominator
    }

    private static func perThousand(_ count: Int, _ denominator: Double) -> Double { Double(count) * 1000 / denominator }
}
