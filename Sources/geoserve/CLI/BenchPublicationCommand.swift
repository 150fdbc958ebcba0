import Aggregation
import ArgumentParser
import DomainKernel
import Foundation

struct BenchPublicationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publication",
        abstract: "Time planning daily publications over a synthetic load and measure what protection costs; print one JSON line.",
        discussion: """
        A layer of --areas areas receives verified COVID reports for --days days: Poisson counts with \
        --per-day a day over the layer, spread Zipf-like over the areas (weight 1/rank^0.8), from a \
        fixed seed. One publication a day is planned from every report so far, as the store hands \
        them over, and the layer's published statistics (every window) are built from its blocks; \
        the medians and maxima of those times are printed. On the last day the published numbers \
        are compared with the true ones (share of area-window numbers that differ, mean absolute \
        difference, areas with at least k in 28 days that are shown with at least k), and with what \
        the earlier per-release suppression showed on the same counts (share suppressed, areas shown).
        """
    )

    @Option(help: "Areas of the layer.") var areas: Int = 42
    @Option(help: "Verified reports a day over the whole layer (mean).") var perDay: Double = 30
    @Option(help: "Days of daily publications.") var days: Int = 56
    @Option(help: "Protection threshold k.") var k: Int = 11
    @Option(help: "Random seed.") var seed: UInt64 = 1

    func validate() throws {
        guard areas >= 1, days >= 1, perDay >= 0, k >= 1 else { throw ValidationError("areas, days and k must be positive, per-day not negative") }
    }

    func run() async throws {
        var policy = DisclosurePolicy.default
        policy.thresholds[.public] = k
        let planner = PublicationPlanner(policy: policy)
        let ids = (0..<areas).map { "A\($0)" }
        let keys = ids.map { LedgerKey(kind: .covid, areaClass: AreaClass([AreaRef(layer: "bench", areaID: $0)])) }
        let weights = (0..<areas).map { 1 / pow(Double($0 + 1), 0.8) }
        let scale = perDay / weights.reduce(0, +)
        var rng = SeededRandom(state: seed)
        let first = Day(year: 2026, month: 9, day: 1)
        var truth = [[Int]](repeating: [Int](repeating: 0, count: days), count: areas)
        for a in 0..<areas { for d in 0..<days { truth[a][d] = rng.poisson(weights[a] * scale) } }

        var ledger = PublicationLedger()
        var blocks: [PublishedBlock] = []
        var planTimes: [Double] = [], releaseTimes: [Double] = []
        var released: ReleasedLayerStatistics?
        let clock = ContinuousClock()
        for d in 0..<days {
            let today = first.adding(days: d)
            // What the store would hand over: every verified report so far, by line and day.
            var rows: [VerifiedClassCount] = []
            rows.reserveCapacity(areas * (d + 1))
            for a in 0..<areas { for day in 0...d where truth[a][day] > 0 {
                rows.append(VerifiedClassCount(key: keys[a], verifiedOn: first.adding(days: day), count: truth[a][day]))
            } }
            let start = clock.now
            let (new, next) = planner.plan(ledger: ledger, verified: rows, day: today)
            planTimes.append((clock.now - start).seconds)
            ledger = next
            blocks += new
            let releaseStart = clock.now
            released = PublishedStatistics.release(layer: "bench", kind: .covid, end: today, areaIDs: ids, blocks: blocks,
                                                   denominators: [:], threshold: k, audience: .public)
            releaseTimes.append((clock.now - releaseStart).seconds)
        }
        let end = first.adding(days: days - 1)
        // A first publication on an installation with this history: the whole replay at once.
        var history: [VerifiedClassCount] = []
        for a in 0..<areas { for day in 0..<days where truth[a][day] > 0 {
            history.append(VerifiedClassCount(key: keys[a], verifiedOn: first.adding(days: day), count: truth[a][day]))
        } }
        let replayStart = clock.now
        let replay = planner.plan(ledger: PublicationLedger(), verified: history, day: end)
        let replaySeconds = (clock.now - replayStart).seconds

        // The true numbers on the last day, and what per-release suppression showed of them.
        var cells: [(CounterKey, Int)] = []
        for a in 0..<areas { for d in 0..<days where truth[a][d] > 0 {
            cells.append((CounterKey(layer: "bench", areaID: ids[a], kind: .covid, status: .verified, basis: .verified, day: first.adding(days: d), group: ""),
                          truth[a][d]))
        } }
        let request = StatisticsRequest(layer: "bench", kind: .covid, basis: .verified, end: end, groups: [])
        let stats = Statistics.compute(request, areaIDs: ids, counters: cells, denominators: [:])
        let suppressed = DisclosureControl(policy: policy).release(stats, for: .public)

        var differing = 0, total = 0, absolute = 0, withheld = 0
        var large = 0, relative = 0.0
        var readableTruth = 0, readableNow = 0, readableBefore = 0
        for id in ids {
            let actual = stats.areas[id]!
            let shown = released!.areas[id]!
            let before = suppressed.areas[id]!
            for window in Window.allCases {
                let t = actual.count(window)
                let p = shown.counts[window]?.value ?? 0
                total += 1
                if p != t { differing += 1 }
                absolute += abs(p - t)
                if t >= k {
                    large += 1
                    relative += Double(abs(p - t)) / Double(t)
                }
                if before.counts[window]?.isSuppressed == true { withheld += 1 }
            }
            if actual.count(.d28) >= k {
                readableTruth += 1
                if (shown.counts[.d28]?.value ?? 0) >= k { readableNow += 1 }
                if before.counts[.d28]?.value != nil { readableBefore += 1 }
            }
        }
        let fields: [(String, String)] = [
            ("areas", "\(areas)"), ("per_day", fmt(perDay)), ("days", "\(days)"), ("k", "\(k)"),
            ("reports", "\(truth.joined().reduce(0, +))"),
            ("plan_ms_median", fmt(planTimes.median * 1000)), ("plan_ms_max", fmt((planTimes.max() ?? 0) * 1000)),
            ("release_ms_median", fmt(releaseTimes.median * 1000)), ("release_ms_max", fmt((releaseTimes.max() ?? 0) * 1000)),
            ("blocks", "\(blocks.count)"), ("replay_ms", fmt(replaySeconds * 1000)), ("replay_blocks", "\(replay.blocks.count)"),
            ("published_share_differing", fmt(Double(differing) / Double(max(total, 1)))),
            ("published_mean_abs_difference", fmt(Double(absolute) / Double(max(total, 1)))),
            ("published_mean_relative_difference_where_true_at_least_k", fmt(relative / Double(max(large, 1)))),
            ("suppressed_share_before", fmt(Double(withheld) / Double(max(total, 1)))),
            ("areas_28d_at_least_k", "\(readableTruth)"), ("shown_28d_at_least_k_now", "\(readableNow)"),
            ("shown_28d_before", "\(readableBefore)"),
        ]
        print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    }

    private func fmt(_ x: Double) -> String { String(format: "%.6g", x) }
}
