import Aggregation
import DomainKernel
import Foundation
import Support

/// What a change of the areas costs in accuracy (`geoserve bench publication --changes`): a
/// campus of halls published daily for 84 days, with a change of two halls A and B (the two
/// busiest) on day 28 and its undo on day 56, against the same reports with no change. The
/// halls are made of pieces of ground — each hall its core, A also a strip along B — and a map
/// version says which pieces each hall holds; an area's interior point is the core of its
/// first hall, so the maps' answers are computed as `AreaSuccessions` computes them, from the
/// maps alone. The truth counts each verified report in the area its piece lies in on the
/// current map; the public number sums the released blocks of the lines whose class holds the
/// area. The table gives the mean absolute difference between them for A and B, per window and
/// period, with the change and without it.
struct BenchPublicationChanges {
    enum Change: String, CaseIterable {
        case edge = "a moved edge (A's strip to B), rolled back on day 56"
        case merge = "A and B merged, the merge undone on day 56"
        case rename = "A renamed A2 (same ground), renamed back on day 56"
    }

    let halls: Int
    let perDay: Double
    let k: Int
    let trials: Int
    let seed: UInt64
    /// The share of A's reports that lie in its strip.
    let stripShare = 0.25
    static let days = 84, changeDay = 28, undoDay = 56

    /// A piece of ground: a hall's core, or A's strip (hall 0).
    struct Piece: Hashable { let hall: Int; let strip: Bool }
    typealias Map = [String: Set<Piece>]

    func name(_ h: Int) -> String { String(format: "H%02d", h) }

    func baseMap() -> Map {
        var map: Map = [:]
        for h in 0..<halls { map[name(h)] = [Piece(hall: h, strip: false)] }
        map[name(0)]!.insert(Piece(hall: 0, strip: true))
        return map
    }

    func changedMap(_ change: Change) -> Map {
        var map = baseMap()
        switch change {
        case .edge:
            map[name(0)]!.remove(Piece(hall: 0, strip: true))
            map[name(1)]!.insert(Piece(hall: 0, strip: true))
        case .merge:
            map["M01"] = map.removeValue(forKey: name(0))!.union(map.removeValue(forKey: name(1))!)
        case .rename:
            map["H00b"] = map.removeValue(forKey: name(0))
        }
        return map
    }

    /// An area's interior point: the core of its first hall.
    static func interior(_ pieces: Set<Piece>) -> Piece? {
        pieces.filter { !$0.strip }.min { $0.hall < $1.hall }
    }

    static func area(holding piece: Piece, in map: Map) -> String? {
        map.first { $0.value.contains(piece) }?.key
    }

    /// Mean absolute differences: [change or control][hall A, B][window][period].
    func run() -> [Change: (changed: [[[Double]]], control: [[[Double]]])] {
        var out: [Change: (changed: [[[Double]]], control: [[[Double]]])] = [:]
        for change in Change.allCases {
            var sums = (changed: empty(), control: empty())
            for trial in 0..<trials {
                var rng = SeededRandom(state: seed &+ UInt64(trial) &* 7_919)
                let weights = (0..<halls).map { 1 / pow(Double($0 + 1), 0.8) }
                let scale = perDay / weights.reduce(0, +)
                var reports: [(piece: Piece, day: Int)] = []
                for d in 0..<Self.days {
                    for h in 0..<halls {
                        for _ in 0..<rng.poisson(weights[h] * scale) {
                            reports.append((Piece(hall: h, strip: h == 0 && rng.uniform() < stripShare), d))
                        }
                    }
                }
                add(&sums.changed, simulate(reports, change: change))
                add(&sums.control, simulate(reports, change: nil))
            }
            out[change] = (scaled(sums.changed), scaled(sums.control))
        }
        return out
    }

    private func empty() -> [[[Double]]] {
        Array(repeating: Array(repeating: Array(repeating: 0, count: 3), count: Window.allCases.count), count: 2)
    }

    private func add(_ a: inout [[[Double]]], _ b: [[[Double]]]) {
        for i in a.indices { for j in a[i].indices { for p in a[i][j].indices { a[i][j][p] += b[i][j][p] } } }
    }

    private func scaled(_ a: [[[Double]]]) -> [[[Double]]] {
        a.map { $0.map { $0.map { $0 / Double(trials) } } }
    }

    /// One campus through 84 daily publications; the mean absolute difference for A and B per
    /// window over days 0–27, 28–55 and 56–83 (the areas A and B are in on each day's map).
    private func simulate(_ reports: [(piece: Piece, day: Int)], change: Change?) -> [[[Double]]] {
        var policy = DisclosurePolicy.default
        policy.thresholds[.public] = k
        let planner = PublicationPlanner(policy: policy)
        let first = Day(year: 2026, month: 9, day: 1)
        var versions: [Int: Map] = [1: baseMap()]
        if let change { versions[2] = changedMap(change) }
        var ledger = PublicationLedger()
        var lineOf = [Int64?](repeating: nil, count: reports.count)
        var blocks: [PublishedBlock] = []
        var error = empty()
        for d in 0..<Self.days {
            let version = change == nil || d < Self.changeDay || d >= Self.undoDay ? 1 : 2
            let map = versions[version]!
            func areaClass(_ p: Piece) -> AreaClass? {
                Self.area(holding: p, in: map).map { AreaClass([AreaRef(layer: "halls", areaID: $0)]) }
            }
            var grouped: [VerifiedClassCount: Int] = [:]
            var indexesOf: [String: [Int]] = [:]
            for (i, r) in reports.enumerated() where r.day <= d {
                guard let c = areaClass(r.piece) else { continue }
                let row = VerifiedClassCount(key: LedgerKey(kind: .covid, areaClass: c), line: lineOf[i], verifiedOn: first.adding(days: r.day), count: 0)
                grouped[row, default: 0] += 1
                if lineOf[i] == nil { indexesOf[c.key, default: []].append(i) }
            }
            let rows = grouped.map { VerifiedClassCount(key: $0.key.key, line: $0.key.line, verifiedOn: $0.key.verifiedOn, count: $0.value) }
            let geography = ["halls": version]
            var answers: [AreaSuccession: String] = [:]
            for q in PublicationPlanner.questions(ledger: ledger, geography: geography) {
                guard let from = versions[q.from.version]?[q.from.areaID], let target = versions[q.version] else { continue }
                if target[q.from.areaID] == from { answers[q] = q.from.areaID; continue }
                if let p = Self.interior(from), let area = Self.area(holding: p, in: target) { answers[q] = area }
            }
            // An area's identity is its ground, as the store's digest of its geometry is.
            var identities: [ClassOnMaps: String] = [:]
            for c in PublicationPlanner.identityQuestions(ledger: ledger, verified: rows, geography: geography) {
                identities[c] = LineIdentity.key(of: c.areaClass, geography: c.geography) { _, area in
                    versions[c.geography["halls"] ?? 1]?[area].map { $0.map { "\($0.hall)\($0.strip ? "s" : "")" }.sorted().joined(separator: ",") }
                }
            }
            let plan = planner.plan(ledger: ledger, verified: rows, day: first.adding(days: d), geography: geography, answers: answers, identities: identities)
            for a in plan.assignments where a.from == nil { for i in indexesOf[a.areaClass.key] ?? [] { lineOf[i] = a.to } }
            ledger = plan.ledger
            blocks += plan.blocks
            // A and B as the public finds them on today's map: the areas holding their cores.
            let period = d < Self.changeDay ? 0 : d < Self.undoDay ? 1 : 2
            for (slot, hall) in [0, 1].enumerated() {
                let area = Self.area(holding: Piece(hall: hall, strip: false), in: map)!
                for (w, window) in Window.allCases.enumerated() {
                    let span = [Window.d7: 7, .d14: 14, .d28: 28][window] ?? Int.max
                    let inWindow: (Int) -> Bool = { span == Int.max || (d - $0) < span }
                    let truth = reports.lazy.filter { $0.day <= d && inWindow($0.day) && Self.area(holding: $0.piece, in: map) == area }.count
                    let shown = blocks.reduce(0) { sum, b in
                        let day = b.day.days(since: first)
                        guard inWindow(day), ledger.lines[b.line]?.key.areaClass.area(in: "halls") == area else { return sum }
                        return sum + b.value
                    }
                    let periodDays = Double(period == 0 ? Self.changeDay : Self.undoDay - Self.changeDay)
                    error[slot][w][period] += Double(abs(shown - truth)) / periodDays
                }
            }
        }
        return error
    }

    /// The Markdown table.
    func table() -> String {
        let results = run()
        var lines = ["Mean absolute difference between the public number and the truth, per window, for A (the busiest hall) and B (its neighbour); "
                     + "days 0–27 before the change, 28–55 after it, 56–83 after the undo; in brackets the same reports with no change "
                     + "(\(halls) halls, \(fmt(perDay)) verified reports a day, k = \(k), \(trials) trials).", "",
                     "| change | hall | window | before | after the change | after the undo |", "|---|---|---|---|---|---|"]
        for change in Change.allCases {
            let (changed, control) = results[change]!
            for (slot, hall) in ["A", "B"].enumerated() {
                for (w, window) in Window.allCases.enumerated() {
                    let cells = (0..<3).map { p in "\(fmt(changed[slot][w][p])) (\(fmt(control[slot][w][p])))" }
                    lines.append("| \(change.rawValue) | \(hall) | \(window.rawValue) | " + cells.joined(separator: " | ") + " |")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private func fmt(_ x: Double) -> String { String(format: "%.1f", x) }
}
