import Aggregation
import ArgumentParser
import DomainKernel
import Foundation
import GeoserveApp
import Support

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
        the earlier per-release suppression showed on the same counts (share suppressed, areas shown). \
        With --weekly, publications are made on Mondays only (a quiet campus's schedule).

        With --lag, prints instead a Markdown table of how long an outbreak waits to be seen: on \
        campuses of 5, 20 and 60 reports a day over --areas halls, one hall of middle rank gets 1, 3, \
        6 or 12 more a day after four weeks of publications; the table gives the median and the \
        longest number of the outbreak's days until that hall's published number first moves, over \
        --trials trials each, with daily and with weekly (Monday) publications, and in how many trials \
        the number had moved by the first publication after the outbreak alone brought k + 1.

        With --changes, prints instead a Markdown table of what a change of the areas costs: the two \
        busiest of --areas halls (A and B) through a moved edge and its rollback, a merge and its undo, \
        and a rename, over 84 daily publications, --trials trials each: the mean absolute difference \
        between the public number and the truth per window, before, after the change and after the \
        undo, beside the same reports with no change.
        """
    )

    @Option(help: "Areas of the layer.") var areas: Int = 42
    @Option(help: "Verified reports a day over the whole layer (mean).") var perDay: Double = 30
    @Option(help: "Days of daily publications.") var days: Int = 56
    @Option(help: "Protection threshold k.") var k: Int = 11
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Flag(help: "Publish on Mondays only instead of every day.") var weekly = false
    @Flag(help: "Print the lag table instead (see the discussion).") var lag = false
    @Flag(help: "Print the table of what changes of the areas cost instead (see the discussion).") var changes = false
    @Option(help: "Trials per cell of the lag table.") var trials: Int = 140

    func validate() throws {
        guard areas >= 1, days >= 1, perDay >= 0, k >= 1, trials >= 1 else {
            throw ValidationError("areas, days, trials and k must be positive, per-day not negative")
        }
    }

    func run() async throws {
        if lag {
            printLagTable()
            return
        }
        if changes {
            print(BenchPublicationChanges(halls: areas, perDay: perDay, k: k, trials: trials, seed: seed).table())
            return
        }
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

        var replay = BenchPublicationReplay(planner: planner, keys: keys, first: first)
        var planTimes: [Double] = [], releaseTimes: [Double] = []
        var released: ReleasedLayerStatistics?
        let clock = ContinuousClock()
        let mondays = PublicationDays(weekdays: [1])!
        var lastPublished = 0
        for d in 0..<days where !weekly || first.adding(days: d).isoWeekday == 1 {
            let today = first.adding(days: d)
            let rows = replay.rows(truth, through: d)
            let start = clock.now
            let plan = planner.plan(ledger: replay.ledger, verified: rows, day: today, days: weekly ? mondays : .daily)
            planTimes.append((clock.now - start).seconds)
            replay.record(plan, through: d)
            let releaseStart = clock.now
            released = PublishedStatistics.release(layer: "bench", kind: .covid, end: today, areaIDs: ids, blocks: replay.blocks,
                                                   denominators: [:], threshold: k, audience: .public)
            releaseTimes.append((clock.now - releaseStart).seconds)
            lastPublished = d
        }
        let blocks = replay.blocks
        // Compared as of the last publication: the public reads its numbers until the next.
        let end = first.adding(days: lastPublished)
        // A first publication on an installation with this history: the whole replay at once.
        var history: [VerifiedClassCount] = []
        for a in 0..<areas { for day in 0..<days where truth[a][day] > 0 {
            history.append(VerifiedClassCount(key: keys[a], verifiedOn: first.adding(days: day), count: truth[a][day]))
        } }
        let replayStart = clock.now
        let firstPublication = planner.plan(ledger: PublicationLedger(), verified: history, day: first.adding(days: days - 1),
                                            days: weekly ? mondays : .daily)
        let replaySeconds = (clock.now - replayStart).seconds

        // The true numbers on the last day, and what per-release suppression showed of them.
        var cells: [(CounterKey, Int)] = []
        for a in 0..<areas { for d in 0...lastPublished where truth[a][d] > 0 {
            cells.append((CounterKey(layer: "bench", areaID: ids[a], kind: .covid, status: .verified, basis: .verified, day: first.adding(days: d), group: nil),
                          truth[a][d]))
        } }
        let request = StatisticsRequest(layer: "bench", kind: .covid, basis: .verified, end: end, groups: [])
        let stats = Statistics.compute(request, areaIDs: ids, counters: cells, denominators: [:])
        let suppressed = DisclosureControl(policy: policy).release(stats, for: .public)

        var differing = 0, total = 0, absolute = 0, withheld = 0
        var large = 0, relative = 0.0
        var readableTruth = 0, readableNow = 0, readableBefore = 0
        for id in ids {
            let actual = stats[area: id]!
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
            ("areas", "\(areas)"), ("per_day", fmt(perDay)), ("days", "\(days)"), ("k", "\(k)"), ("schedule", weekly ? "\"weekly\"" : "\"daily\""),
            ("reports", "\(truth.joined().reduce(0, +))"),
            ("plan_ms_median", fmt(planTimes.median * 1000)), ("plan_ms_max", fmt((planTimes.max() ?? 0) * 1000)),
            ("release_ms_median", fmt(releaseTimes.median * 1000)), ("release_ms_max", fmt((releaseTimes.max() ?? 0) * 1000)),
            ("blocks", "\(blocks.count)"), ("replay_ms", fmt(replaySeconds * 1000)), ("replay_blocks", "\(firstPublication.blocks.count)"),
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

    /// The lag table: median and longest days of an outbreak until its hall's number moves.
    private func printLagTable() {
        let outbreaks = [1, 3, 6, 12], loads = [5.0, 20, 60]
        print("Days of an outbreak until its hall's number moves: median / longest · trials in which it moved by the first publication after the outbreak alone brought k + 1.")
        print()
        print("| campus | schedule | " + outbreaks.map { "\($0) a day" }.joined(separator: " | ") + " |")
        print("|---|---|" + outbreaks.map { _ in "---|" }.joined())
        for load in loads {
            for weekly in [false, true] {
                let cells = outbreaks.map { outbreak -> String in
                    let outcome = BenchPublicationLag(areas: areas, perDay: load, outbreak: outbreak, weekly: weekly, k: k, trials: trials,
                                                      seed: seed &+ UInt64(outbreak) &* 1_000 &+ UInt64(load)).run()
                    let median = outcome.median.map { "\($0)" } ?? "> \(BenchPublicationLag.horizon)"
                    let longest = outcome.maximum.map { "\($0)" } ?? "> \(BenchPublicationLag.horizon) (\(outcome.missed) missed)"
                    let prompt = outcome.promptly.filter { $0 }.count
                    return "\(median) / \(longest) · \(prompt)/\(outcome.lags.count)"
                }
                print("| \(Int(load)) a day | \(weekly ? "weekly" : "daily") | " + cells.joined(separator: " | ") + " |")
            }
        }
    }
}
