import DomainKernel

/// Hashing and equality by case rather than by raw string (the default for a `String`-backed
/// enum): every `CounterKey` hashes its basis, and counters are hashed by the million in a
/// recompute and on every transition.
extension TimeBasis {
    private var ordinal: Int {
        switch self {
        case .occurred: 0
        case .submitted: 1
        case .verified: 2
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    public static func == (lhs: TimeBasis, rhs: TimeBasis) -> Bool { lhs.ordinal == rhs.ordinal }
}
