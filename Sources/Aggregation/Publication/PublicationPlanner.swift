import DomainKernel

/// Decides what a publication releases: the ledger that makes every public number, across every
/// publication, layer, window and export, a sum of whole released blocks.
///
/// ## How
/// Each ledger line (a kind in an `AreaClass`) carries its unreleased net change. A publication
/// on day D replays the days since the last publication in order (every verification day, for a
/// first publication that meets a history), adding each day's new verifications to their lines
/// and, on D, what else changed since (revocations, edits and re-assignments moving reports,
/// verifications on the last publication's day after it). On each day a line whose carry has
/// reached `DisclosurePolicy.releaseStep` (k + 1, or 1 for public records) in either direction is
/// released as one block dated that day and starts again from zero — but only on a day (an
/// interval between publications) in which its kind saw at least a step of changes: a
/// publication after one or two verifications moves no public number, so someone who knows that
/// a single report was verified in between cannot tell where it went. (A campus with fewer
/// verifications than that between publications publishes less often: see the schedule.)
///
/// ## What that gives
/// - Every public number (a layer's area or total, any window, by day of release) is a sum of
///   released blocks, each the net change of one line of at least k + 1 reports; nothing in an
///   unreleased carry reaches any output, and released blocks never change.
/// - A block's reports are spread over the days since its line's previous release; an attacker
///   who knows the rule learns only that the carry before the release day was at most k, so any
///   day's count inside the block keeps a range at least k wide.
/// - The price: reports in a class with few of them wait until k + 1 have gathered, and are then
///   counted on the day of release rather than of verification.
public struct PublicationPlanner: Sendable {
    public let policy: DisclosurePolicy

    public init(policy: DisclosurePolicy) {
        self.policy = policy
    }

    /// Plans a publication on `day` from the current verified reports.
    ///
    /// - Parameters:
    ///   - ledger: the state after the last publication.
    ///   - verified: every verified report counted by line and verification day (no line twice
    ///     with the same day is expected; repeats are added).
    ///   - day: the publication's day, not before `ledger.lastDay`.
    /// - Returns: the released blocks (by day, then line) and the ledger to keep.
    public func plan(ledger: PublicationLedger, verified: [VerifiedClassCount], day: Day) -> (blocks: [PublishedBlock], ledger: PublicationLedger) {
        let last = ledger.lastDay
        var totals: [LedgerKey: Int] = [:]
        var changes: [Day: [LedgerKey: Int]] = [:]
        var explained: [LedgerKey: Int] = [:]
        for row in verified where row.count != 0 {
            totals[row.key, default: 0] += row.count
            let on = min(row.verifiedOn ?? day, day)
            if last.map({ on > $0 }) ?? true {
                changes[on, default: [:]][row.key, default: 0] += row.count
                explained[row.key, default: 0] += row.count
            }
        }
        // What the days' verifications do not explain changed since the last publication: it
        // counts on the publication's day.
        var residual: [LedgerKey: Int] = [:]
        for key in Set(totals.keys).union(ledger.entries.keys) {
            let rest = (totals[key] ?? 0) - (ledger.entries[key]?.accounted ?? 0) - (explained[key] ?? 0)
            if rest != 0 { residual[key] = rest }
        }
        if !residual.isEmpty { changes[day, default: [:]].merge(residual, uniquingKeysWith: +) }

        var entries = ledger.entries
        // Lines whose carry has reached their step, waiting for a day busy enough to release them.
        var ready: [ReportKind: Set<LedgerKey>] = [:]
        for (key, entry) in entries where abs(entry.carry) >= policy.releaseStep(for: key.kind) { ready[key.kind, default: []].insert(key) }
        var blocks: [PublishedBlock] = []
        for on in changes.keys.sorted() {
            var activity: [ReportKind: Int] = [:]
            for (key, delta) in changes[on]! where delta != 0 {
                var entry = entries[key] ?? PublicationLedger.Entry(accounted: 0, carry: 0)
                entry.carry += delta
                entries[key] = entry
                activity[key.kind, default: 0] += abs(delta)
                if abs(entry.carry) >= policy.releaseStep(for: key.kind) { ready[key.kind, default: []].insert(key) } else { ready[key.kind]?.remove(key) }
            }
            for kind in ReportKind.allCases {
                guard let lines = ready[kind], !lines.isEmpty, activity[kind, default: 0] >= policy.releaseStep(for: kind) else { continue }
                for key in lines.sorted() {
                    blocks.append(PublishedBlock(key: key, day: on, value: entries[key]!.carry))
                    entries[key]!.carry = 0
                }
                ready[kind] = []
            }
        }
        // Every line with reports has an entry by now: one the last publication accounted for,
        // or one a change of this publication created.
        for key in Array(entries.keys) {
            let carry = entries[key]!.carry
            let total = totals[key] ?? 0
            entries[key] = total == 0 && carry == 0 ? nil : PublicationLedger.Entry(accounted: total, carry: carry)
        }
        return (blocks, PublicationLedger(entries: entries, lastDay: day))
    }
}
