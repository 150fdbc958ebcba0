import DomainKernel

/// Decides what a publication releases: the ledger that makes every public number, across every
/// publication, layer, window, export and any sequence of changes of the areas, a sum of whole
/// released blocks.
///
/// ## How
/// Reports are accounted to ledger lines (a kind in an `AreaClass`, see `LedgerLine`); each line
/// carries its unreleased net change. A publication on day D:
/// 1. where area layers changed since the last publication, gives each line the class its origin
///    lies in on the maps now (`LineLineage`): decided from the maps alone, so the line keeps its
///    history, its carry and its reports, and the public can compute where it went;
/// 2. accounts the reports no publication has seen to the line of their class (the oldest line
///    with that class, or a new one) and takes what else changed (revocations, edits, reports
///    verified again) from the lines they were accounted to. A report once accounted never
///    leaves its line any other way: nothing moves between lines when areas change;
/// 3. releases, per interval, every line whose carry reached `DisclosurePolicy.releaseStep`
///    (k + 1, or 1 for public records) in either direction as one block dated the interval's end,
///    the carry starting again from zero — but only in an interval in which its kind saw at least
///    a step of changes. The interval is the time since the last publication (a weekly schedule
///    gathers a week), and for a first publication that meets a history, each interval its
///    schedule would have had (`PublicationDays`).
///
/// ## What that gives
/// - Every line's blocks are exactly those it would have released had the areas never changed:
///   each the net change of at least k + 1 of its own reports, released in an interval with at
///   least k + 1 changes; released blocks never change.
/// - Every public number is a sum of blocks of the lines whose class, a public function of the
///   maps, lies in the area. So whatever sequence of changes happened, an attacker holding every
///   output learns at most each line's blocks, and a block's reports are spread over the
///   interval since its line's previous release: any day's count inside it keeps a range at
///   least k wide, and an unreleased carry its whole range.
/// - Someone who knows that a single report was verified between two publications learns
///   nothing: an interval with fewer than a step of changes of the kind releases none of it.
/// - The price: reports in a line with few of them wait until k + 1 have gathered and an interval
///   is busy enough, and count on the day of release; reports a change of the areas put in
///   another area go on counting where they were when they were counted.
public struct PublicationPlanner: Sendable {
    public let policy: DisclosurePolicy

    public init(policy: DisclosurePolicy) {
        self.policy = policy
    }

    /// The questions about the maps a publication at `geography` needs answered (see
    /// `LineLineage`): none unless a layer changed since the ledger's last publication.
    public static func questions(ledger: PublicationLedger, geography: [String: Int]) -> Set<AreaSuccession> {
        let changed = changedLayers(from: ledger.geography, to: geography)
        guard !changed.isEmpty else { return [] }
        var out: Set<AreaSuccession> = []
        for line in ledger.lines.values {
            let origin = line.origin ?? LineOrigin(areaClass: line.key.areaClass, geography: ledger.geography)
            out.formUnion(LineLineage.questions(origin: origin, layers: changed, geography: geography))
        }
        return out
    }

    /// The classes on the maps whose line identities a publication at `geography` needs (see
    /// `LineIdentity`): the class of every report no line holds, on the maps now, and the origin
    /// of every line kept before identities were.
    public static func identityQuestions(ledger: PublicationLedger, verified: [VerifiedClassCount], geography: [String: Int]) -> Set<ClassOnMaps> {
        var out: Set<ClassOnMaps> = []
        for row in verified where row.count != 0 {
            if let id = row.line, let line = ledger.lines[id], line.key.kind == row.key.kind { continue }
            out.insert(ClassOnMaps(areaClass: row.key.areaClass, geography: geography))
        }
        for line in ledger.lines.values where line.identity == nil {
            out.insert(Self.originOnMaps(line, ledger: ledger))
        }
        return out
    }

    static func originOnMaps(_ line: LedgerLine, ledger: PublicationLedger) -> ClassOnMaps {
        let origin = line.origin ?? LineOrigin(areaClass: line.key.areaClass, geography: ledger.geography)
        return ClassOnMaps(areaClass: AreaClass(key: origin.classKey), geography: origin.geography)
    }

    /// A class's identity where the store gave none: the class and the versions themselves,
    /// still a function of the maps alone.
    static func identity(_ c: ClassOnMaps, _ identities: [ClassOnMaps: String]) -> String {
        identities[c] ?? (c.areaClass.key + "|" + LineOrigin(areaClass: c.areaClass, geography: c.geography).geographyKey)
    }

    /// Plans a publication on `day` from the current verified reports.
    ///
    /// - Parameters:
    ///   - ledger: the state after the last publication.
    ///   - verified: every verified report counted by class, line accounted to and verification
    ///     day (repeats are added).
    ///   - day: the publication's day, not before `ledger.lastDay`.
    ///   - geography: the published version of each area layer now (nil: as the ledger saw them).
    ///   - answers: the maps' answers to `questions(ledger:geography:)`; a question left out is
    ///     answered "no area".
    ///   - identities: the identities of `identityQuestions(ledger:verified:geography:)`.
    ///   - days: the schedule's publication days, for replaying a history.
    public func plan(ledger: PublicationLedger, verified: [VerifiedClassCount], day: Day, geography: [String: Int]? = nil,
                     answers: [AreaSuccession: String] = [:], identities: [ClassOnMaps: String] = [:], days: PublicationDays = .daily) -> PublicationPlan {
        let geography = geography ?? ledger.geography
        let changed = Self.changedLayers(from: ledger.geography, to: geography)
        var lines = ledger.lines
        var nextID = ledger.nextLineID

        // What each line holds now, and the reports no line holds, by interval.
        var kept: [Int64: Int] = [:]
        var fresh: [LedgerKey: [Day: Int]] = [:]
        var staleLines: [LedgerKey: Set<Int64>] = [:]
        for row in verified where row.count != 0 {
            if let id = row.line, let line = lines[id], line.key.kind == row.key.kind {
                kept[id, default: 0] += row.count
                continue
            }
            if let id = row.line { staleLines[row.key, default: []].insert(id) }
            let on = min(row.verifiedOn ?? day, day)
            let end = ledger.lastDay == nil ? min(days.intervalEnd(for: on), day) : day
            fresh[row.key, default: [:]][end, default: 0] += row.count
        }

        // What changed each line's carry, by the end of the interval it changed in.
        var adjusted: [(line: Int64, delta: Int)] = []
        var added: [(line: Int64, byEnd: [Day: Int])] = []
        var assignments: [LineAssignment] = []
        var movedLines = 0
        for (id, old) in ledger.lines {
            var line = old
            // A line kept before origins were: opened, as far as anyone can tell now, in its
            // class on the maps of the last publication.
            if old.origin == nil { line.origin = LineOrigin(areaClass: old.key.areaClass, geography: ledger.geography) }
            if old.identity == nil { line.identity = Self.identity(Self.originOnMaps(old, ledger: ledger), identities) }
            if !changed.isEmpty, let origin = line.origin {
                let to = LineLineage.place(current: line.key.areaClass, origin: origin, changed: changed, geography: geography, answers: answers)
                if to != line.key.areaClass {
                    line.key = LedgerKey(kind: line.key.kind, areaClass: to)
                    movedLines += 1
                }
            }
            // Reports accounted to the line that are no longer verified (or verified again)
            // change its carry on the publication day.
            let held = kept[id] ?? 0
            if line.accounted != held {
                adjusted.append((id, held - line.accounted))
                line.accounted = held
            }
            if line != old { lines[id] = line }
        }

        // New reports join the line of their class's identity on the maps now, opened if none has
        // it: which line takes them depends on the maps alone, never on which lines exist.
        var byIdentity: [ReportKind: [String: Int64]]?
        // Every new report lies on the maps of now: their identities are looked up by class (a
        // `ClassOnMaps` hashes its whole geography), and one that the store gave none for is named
        // by its class and the versions, built once.
        var freshIdentities: [AreaClass: String] = [:]
        for (c, identity) in identities where c.geography == geography { freshIdentities[c.areaClass] = identity }
        let published = LineOrigin.published(geography)
        let versionsNow = "|" + LineOrigin(areaClass: AreaClass([]), published: published).geographyKey
        func mainLine(_ key: LedgerKey) -> Int64 {
            if byIdentity == nil {
                var table: [ReportKind: [String: Int64]] = [:]
                for line in lines.values {
                    guard let identity = line.identity else { continue }
                    if table[line.key.kind]?[identity].map({ line.id < $0 }) ?? true { table[line.key.kind, default: [:]][identity] = line.id }
                }
                byIdentity = table
            }
            let identity = freshIdentities[key.areaClass] ?? key.areaClass.key + versionsNow
            if let id = byIdentity![key.kind]?[identity] { return id }
            let id = nextID
            nextID += 1
            lines[id] = LedgerLine(id: id, key: key, accounted: 0, carry: 0, origin: LineOrigin(areaClass: key.areaClass, published: published),
                                   identity: identity)
            byIdentity![key.kind, default: [:]][identity] = id
            return id
        }

        for key in fresh.keys.sorted() {
            let to = mainLine(key)
            let byEnd = fresh[key]!
            added.append((to, byEnd))
            lines[to]!.accounted += byEnd.values.reduce(0, +)
            assignments.append(LineAssignment(kind: key.kind, from: nil, areaClass: key.areaClass, to: to))
            for stale in staleLines[key, default: []].sorted() {
                assignments.append(LineAssignment(kind: key.kind, from: stale, areaClass: key.areaClass, to: to))
            }
        }

        var release = CarryRelease(lines: lines, policy: policy)
        for (id, delta) in adjusted { release.add(delta, at: release.position(of: id), end: day) }
        for (id, byEnd) in added {
            let at = release.position(of: id)
            for (end, n) in byEnd { release.add(n, at: at, end: end) }
        }
        var blocks = release.release(into: &lines)
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
