import DomainKernel

/// Decides what a publication releases: the ledger that makes every public number, across every
/// publication, layer, window, export and change of the areas, a sum of whole released blocks.
///
/// ## How
/// Reports are accounted to ledger lines (a kind in an `AreaClass`, see `LedgerLine`); each line
/// carries its unreleased net change. A publication on day D:
/// 1. lets lines follow their reports where area layers changed since the last publication
///    (`LineLineage`): a line keeps its history and carry and only takes a new class, so a new
///    layer, a renamed or merged area or a withdrawn layer moves no public number;
/// 2. moves a whole step of a line's reports that a change of the areas put in another class to
///    that class's line as a pair of blocks on D (−n on the old line, +n on the new), leaving both
///    carries as they were, when the line keeps at least a step of what it had released (n ≤ R −
///    k − 1); fewer, or more, stay counted in their old line for good (decided once);
/// 3. accounts the reports no publication has seen to their class's line and takes what else
///    changed (revocations, edits, reports verified again) from the lines they were accounted to;
/// 4. releases, per interval, every line whose carry reached `DisclosurePolicy.releaseStep`
///    (k + 1, or 1 for public records) in either direction as one block dated the interval's end,
///    the carry starting again from zero — but only in an interval in which its kind saw at least
///    a step of changes. The interval is the time since the last publication (a weekly schedule
///    gathers a week), and for a first publication that meets a history, each interval its
///    schedule would have had (`PublicationDays`).
///
/// ## What that gives
/// - Every public number is a sum of released blocks, each the net change of one line of at
///   least k + 1 reports (or a pair that moves n ≥ k + 1 of them and sums to zero); nothing in an
///   unreleased carry reaches any output, and released blocks never change.
/// - A block's reports are spread over the interval since its line's previous release; an
///   attacker who knows the rule learns only that the carry before the release was at most k,
///   so any day's count inside the block keeps a range at least k wide.
/// - Someone who knows that a single report was verified between two publications learns
///   nothing: an interval with fewer than a step of changes of the kind releases none of it.
/// - The price: reports in a line with few of them wait until k + 1 have gathered and an interval
///   is busy enough, and count on the day of release.
public struct PublicationPlanner: Sendable {
    public let policy: DisclosurePolicy

    public init(policy: DisclosurePolicy) {
        self.policy = policy
    }

    /// Plans a publication on `day` from the current verified reports.
    ///
    /// - Parameters:
    ///   - ledger: the state after the last publication.
    ///   - verified: every verified report counted by class, line accounted to and verification
    ///     day (repeats are added).
    ///   - day: the publication's day, not before `ledger.lastDay`.
    ///   - geography: the published version of each area layer now (nil: as the ledger saw them).
    ///   - existingAreas: of the areas the ledger's lines name in layers that changed, those the
    ///     layers' published versions still hold.
    ///   - days: the schedule's publication days, for replaying a history.
    public func plan(ledger: PublicationLedger, verified: [VerifiedClassCount], day: Day, geography: [String: Int]? = nil,
                     existingAreas: Set<AreaRef> = [], days: PublicationDays = .daily) -> PublicationPlan {
        let geography = geography ?? ledger.geography
        let changed = Self.changedLayers(from: ledger.geography, to: geography)
        var lines = ledger.lines
        var nextID = ledger.nextLineID

        // What each line holds now, and the reports no line holds, by interval. Nearly every
        // report lies in its line's class: those are only counted (a day's planning at 4,000
        // areas reads some 100,000 rows); the few elsewhere are kept by class.
        var kept: [Int64: Int] = [:]
        var elsewhere: [Int64: [AreaClass: (all: Int, unsettled: Int)]] = [:]
        var fresh: [LedgerKey: [Day: Int]] = [:]
        var staleLines: [LedgerKey: Set<Int64>] = [:]
        for row in verified where row.count != 0 {
            if let id = row.line, let line = lines[id], line.key.kind == row.key.kind {
                kept[id, default: 0] += row.count
                if row.key.areaClass != line.key.areaClass || (!changed.isEmpty && !row.settled) {
                    var part = elsewhere[id]?[row.key.areaClass] ?? (0, 0)
                    part.all += row.count
                    if !row.settled { part.unsettled += row.count }
                    elsewhere[id, default: [:]][row.key.areaClass] = part
                }
                continue
            }
            if let id = row.line { staleLines[row.key, default: []].insert(id) }
            let on = min(row.verifiedOn ?? day, day)
            let end = ledger.lastDay == nil ? min(days.intervalEnd(for: on), day) : day
            fresh[row.key, default: [:]][end, default: 0] += row.count
        }

        var changes: [Day: [Int64: Int]] = [:]
        var blocks: [PublishedBlock] = []
        var assignments: [LineAssignment] = []
        var moving: [(from: Int64, areaClass: AreaClass, count: Int)] = []
        var movedLines = 0
        for (id, old) in ledger.lines {
            var line = old
            let held = kept[id] ?? 0
            let parts = elsewhere[id] ?? [:]
            if !changed.isEmpty {
                // Where areas changed, every class the line's reports lie in (its own included,
                // with what lies there unsettled, above) decides where it goes.
                var holding: [AreaClass: Int] = parts.mapValues(\.all)
                let home = held - parts.values.reduce(0) { $0 + $1.all }
                if home > 0 { holding[line.key.areaClass, default: 0] += home }
                let to = LineLineage.destination(of: line.key.areaClass, holding: holding, changed: changed) { existingAreas.contains($0) }
                if to != line.key.areaClass {
                    line.key = LedgerKey(kind: line.key.kind, areaClass: to)
                    movedLines += 1
                }
            }
            // Reports accounted to the line that are no longer verified (or verified again)
            // change its carry on the publication day.
            if line.accounted != held {
                changes[day, default: [:]][id, default: 0] += held - line.accounted
                line.accounted = held
            }
            if line != old { lines[id] = line }
            for (areaClass, part) in parts where areaClass != line.key.areaClass && part.unsettled > 0 {
                moving.append((id, areaClass, part.unsettled))
            }
        }

        var main: [LedgerKey: Int64]?
        func mainLine(_ key: LedgerKey) -> Int64 {
            if main == nil { main = PublicationLedger.mainLines(of: lines.values) }
            if let id = main![key] { return id }
            let id = nextID
            nextID += 1
            lines[id] = LedgerLine(id: id, key: key, accounted: 0, carry: 0)
            main![key] = id
            return id
        }

        // A step of a line's reports lying in another class goes to that class's line as a pair
        // of blocks that sums to zero: the public learns how many moved, and neither carry — as
        // long as the line keeps at least a step of what it had released. The moved reports may
        // include some of the carry's, and the line's own area holds at least one of its reports
        // (else the line would have gone elsewhere): were n to reach the released total R,
        // R + carry ≥ n + 1 would tell that the carry is at least n + 1 − R; and right after a
        // release, when the carry is known to be 0, what the old area keeps, R − n, is exact, so
        // it must not be a small count (a pair of 12 from a line that had released 13 left 1).
        // A part that does not move is settled: it stays counted in its line for good, since
        // deciding again after later releases would measure it against releases its reports are
        // not part of (a part of 20 waiting for a line's released 13 to grow, then moving, told
        // that the carry was at least 8).
        var releasedLeft: [Int64: Int] = [:]
        for move in moving.sorted(by: { ($0.from, $0.areaClass) < ($1.from, $1.areaClass) }) {
            let kind = lines[move.from]!.key.kind
            let step = policy.releaseStep(for: kind)
            let old = ledger.lines[move.from]!
            let budget = releasedLeft[move.from] ?? (old.accounted - old.carry - step)
            guard move.count >= step, move.count <= budget else {
                assignments.append(LineAssignment(kind: kind, from: move.from, areaClass: move.areaClass, to: move.from, settle: true))
                continue
            }
            releasedLeft[move.from] = budget - move.count
            let to = mainLine(LedgerKey(kind: kind, areaClass: move.areaClass))
            blocks.append(PublishedBlock(line: move.from, key: lines[move.from]!.key, day: day, value: -move.count))
            blocks.append(PublishedBlock(line: to, key: lines[to]!.key, day: day, value: move.count))
            lines[move.from]!.accounted -= move.count
            lines[to]!.accounted += move.count
            assignments.append(LineAssignment(kind: kind, from: move.from, areaClass: move.areaClass, to: to))
        }

        for key in fresh.keys.sorted() {
            let to = mainLine(key)
            for (end, n) in fresh[key]! {
                changes[end, default: [:]][to, default: 0] += n
                lines[to]!.accounted += n
            }
            assignments.append(LineAssignment(kind: key.kind, from: nil, areaClass: key.areaClass, to: to))
            for stale in staleLines[key, default: []].sorted() {
                assignments.append(LineAssignment(kind: key.kind, from: stale, areaClass: key.areaClass, to: to))
            }
        }

        // Lines whose carry has reached their step, waiting for an interval busy enough.
        var ready: [ReportKind: Set<Int64>] = [:]
        for line in lines.values where abs(line.carry) >= policy.releaseStep(for: line.key.kind) { ready[line.key.kind, default: []].insert(line.id) }
        for end in changes.keys.sorted() {
            var activity: [ReportKind: Int] = [:]
            for (id, delta) in changes[end]! where delta != 0 {
                lines[id]!.carry += delta
                let kind = lines[id]!.key.kind
                activity[kind, default: 0] += abs(delta)
                if abs(lines[id]!.carry) >= policy.releaseStep(for: kind) { ready[kind, default: []].insert(id) } else { ready[kind]?.remove(id) }
            }
            for kind in ReportKind.allCases {
                guard let waiting = ready[kind], !waiting.isEmpty, activity[kind, default: 0] >= policy.releaseStep(for: kind) else { continue }
                for id in waiting.sorted() {
                    blocks.append(PublishedBlock(line: id, key: lines[id]!.key, day: end, value: lines[id]!.carry))
                    lines[id]!.carry = 0
                }
                ready[kind] = []
            }
        }
        blocks.sort { ($0.day, $0.line) < ($1.day, $1.line) }
        let next = PublicationLedger(lines: lines, lastDay: day, geography: geography)
        return PublicationPlan(blocks: blocks, ledger: next, assignments: assignments, movedLines: movedLines)
    }

    /// The area layers whose published version differs, or that are new or gone.
    public static func changedLayers(from old: [String: Int], to new: [String: Int]) -> Set<String> {
        Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }
    }
}

/// What a publication releases, the ledger it leaves, and which reports it accounts to which line.
public struct PublicationPlan: Sendable {
    public let blocks: [PublishedBlock]
    public let ledger: PublicationLedger
    public let assignments: [LineAssignment]
    /// How many lines took another class: their whole history now counts for it.
    public let movedLines: Int

    public init(blocks: [PublishedBlock], ledger: PublicationLedger, assignments: [LineAssignment] = [], movedLines: Int = 0) {
        self.blocks = blocks
        self.ledger = ledger
        self.assignments = assignments
        self.movedLines = movedLines
    }
}
