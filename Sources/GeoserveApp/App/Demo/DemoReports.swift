import DomainKernel
import Foundation
import Support

/// Synthetic COVID self-reports for the demo campus, so that a newcomer's dashboard has colour,
/// a trend and small halls whose reports wait below the threshold. Deterministic for a seed: a few
/// busy halls, some with a trickle, most with none, and a wave that rises towards today.
/// Every report says what it is in its payload (`{"demo":true}`).
package struct DemoReports {
    /// Days of history before today.
    let days: Int
    let seed: UInt64

    package init(days: Int, seed: UInt64) {
        self.days = days
        self.seed = seed
    }

    /// Reports verified on `day`: the area each lies in and the day it occurred (one to three days
    /// before its verification).
    func verified(on day: Day, today: Day, areas: [String]) -> [(area: String, occurredOn: Day)] {
        let age = today.ordinal - day.ordinal
        guard age >= 1, age <= days else { return [] }
        // A wave: quiet four weeks ago, busiest in the last week.
        let wave = 0.35 + 0.65 * (1 - Double(age - 1) / Double(max(1, days - 1)))
        var rng = SeededRandom(state: seed &+ UInt64(bitPattern: Int64(day.ordinal)))
        var out: [(String, Day)] = []
        for (i, area) in areas.enumerated() {
            let rate = Self.rate(index: i) * wave
            for _ in 0..<rng.poisson(rate) {
                out.append((area, day.adding(days: -1 - Int(rng.next() % 3))))
            }
        }
        return out
    }

    /// Reports a day per area at the wave's top: every ninth area busy, every fourth a trickle.
    static func rate(index i: Int) -> Double {
        if i % 9 == 2 { return 1.6 }
        if i % 4 == 1 { return 0.25 }
        return 0.02
    }
}
