import Foundation

/// SplitMix64 with Poisson draws (Knuth's method, split for large means), so a benchmark or the
/// demo data set replays exactly from its seed, on every machine, and a property test's failure
/// names a case that can be run again.
public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public init(seed: UInt64) {
        self.init(state: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    public mutating func poisson(_ mean: Double) -> Int {
        var rest = mean, n = 0
        while rest > 0 {
            let part = min(rest, 30)
            rest -= part
            let limit = exp(-part)
            var p = uniform()
            while p > limit { n += 1; p *= uniform() }
        }
        return n
    }
}
