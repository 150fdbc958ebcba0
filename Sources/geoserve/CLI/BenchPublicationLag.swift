import Aggregation
import DomainKernel
import Foundation
import GeoserveApp
import Support

/// How long an outbreak waits to be seen: on a campus of `areas` halls with `perDay` verified
/// reports a day spread Zipf-like over them (as `geoserve bench publication`), one hall of middle
/// rank gets `outbreak` more a day from a day after four weeks of publications; the lag is the
/// number of the outbreak's days until that hall's published number first moves (1: the
/// publication made on its first day). Trials start the outbreak on each weekday in turn, so a
/// weekly schedule is met at every point of its week.
struct BenchPublicationLag {
    let areas: Int
    let perDay: Double
    let outbreak: Int
    let weekly: Bool
    let k: Int
    let trials: Int
    let seed: UInt64
    /// Days watched after the outbreak starts.
    static let horizon = 28
    static let warmUp = 28

    struct Outcome {
        /// Lag per trial; nil when the number did not move within the horizon.
        let lags: [Int?]
        /// Per trial, whether the number moved at or before the first publication after the
        /// outbreak alone had brought k + 1 reports (what a schedule can promise at best).
        let promptly: [Bool]

        var seen: [Int] { lags.compactMap { $0 }.sorted() }
        var median: Int? { seen.count * 2 > lags.count ? seen[(lags.count - 1) / 2] : nil }
        var maximum: Int? { seen.count == lags.count ? seen.last : nil }
        var missed: Int { lags.count - seen.count }
    }

    func run() -> Outcome {
        var policy = DisclosurePolicy.default
        policy.thresholds[.public] = k
        let planner = PublicationPlanner(policy: policy)
        let keys = (0..<areas).map { LedgerKey(kind: .covid, areaClass: AreaClass([AreaRef(layer: "bench", areaID: "A\($0)")])) }
        let weights = (0..<areas).map { 1 / pow(Double($0 + 1), 0.8) }
        let scale = perDay / weights.reduce(0, +)
        let hall = areas / 2
        // Mondays, with the first day of the history a Monday.
        let first: Day = "2026-01-05"
        let mondays = PublicationDays(weekdays: [1])!
        var rng = SeededRandom(state: seed)
        var lags: [Int?] = [], promptly: [Bool] = []
        let enough = (k + 1 + outbreak - 1) / max(outbreak, 1)   // outbreak days that bring k + 1
        for trial in 0..<trials {
            let start = Self.warmUp + trial % 7
            let total = start + Self.horizon
            var truth = [[Int]](repeating: [Int](repeating: 0, count: total), count: areas)
            for a in 0..<areas { for d in 0..<total { truth[a][d] = rng.poisson(weights[a] * scale) } }
            for d in start..<total { truth[hall][d] += outbreak }
            var replay = BenchPublicationReplay(planner: planner, keys: keys, first: first)
            var before = 0
            var lag: Int?
            for d in 0..<total where !weekly || first.adding(days: d).isoWeekday == 1 {
                replay.publish(truth, day: d, days: weekly ? mondays : .daily)
                if d < start {
                    before = replay.released[hall]
                } else if replay.released[hall] != before {
                    lag = d - start + 1
                    break
                }
            }
            lags.append(lag)
            // The first publication on or after the day the outbreak alone reached k + 1.
            var due = start + enough - 1
            while weekly && first.adding(days: due).isoWeekday != 1 { due += 1 }
            promptly.append(lag.map { $0 <= due - start + 1 } ?? false)
        }
        return Outcome(lags: lags, promptly: promptly)
    }
}
