import DomainKernel

/// The last step of planning a publication (see `PublicationPlanner`): the lines' carries take
/// each interval's changes, and in an interval in which a kind saw at least a step of changes,
/// every line of that kind whose carry reached its step is released as one block dated the
/// interval's end.
///
/// Lines are kept by position in arrays, not by id in a dictionary: a first publication that
/// meets a history makes a change per line and interval (112,000 at 4,000 cells over 56 days),
/// and each change looked its line up by id four times, which with the larger lines of origins
/// and identities made replaying that history an eighth slower.
struct CarryRelease {
    private let ids: [Int64]
    private let keys: [LedgerKey]
    private let positions: [Int64: Int]
    private let initial: [Int]
    private var carries: [Int]
    /// Each line's kind as an index into `ReportKind.allCases`, and each kind's step.
    private let kinds: [Int]
    private let steps: [Int]
    private var changes: [Day: [(position: Int, delta: Int)]] = [:]

    init(lines: [Int64: LedgerLine], policy: DisclosurePolicy) {
        let all = ReportKind.allCases
        var ids: [Int64] = [], keys: [LedgerKey] = [], carries: [Int] = [], kinds: [Int] = []
        ids.reserveCapacity(lines.count)
        keys.reserveCapacity(lines.count)
        carries.reserveCapacity(lines.count)
        kinds.reserveCapacity(lines.count)
        var positions: [Int64: Int] = [:]
        positions.reserveCapacity(lines.count)
        for (id, line) in lines {
            positions[id] = ids.count
            ids.append(id)
            keys.append(line.key)
            carries.append(line.carry)
            kinds.append(all.firstIndex(of: line.key.kind)!)
        }
        self.ids = ids
        self.keys = keys
        self.positions = positions
        self.initial = carries
        self.carries = carries
        self.kinds = kinds
        steps = all.map { policy.releaseStep(for: $0) }
    }

    /// The position of line `id`, which must be one of the lines the release was made with.
    func position(of id: Int64) -> Int { positions[id]! }

    /// Adds `delta` to the line at `position` in the interval ending `end`.
    mutating func add(_ delta: Int, at position: Int, end: Day) {
        guard delta != 0 else { return }
        changes[end, default: []].append((position, delta))
    }

    /// Releases interval by interval, and writes the carries left back into `lines`.
    mutating func release(into lines: inout [Int64: LedgerLine]) -> [PublishedBlock] {
        let count = ids.count
        // A line is ready when its carry reached its step; `waiting` lists the ready lines of
        // each kind, with a line listed again each time it becomes ready (only a ready line
        // is released, once).
        var ready = [Bool](repeating: false, count: count)
        var waiting = [[Int]](repeating: [], count: steps.count)
        for p in 0..<count where abs(carries[p]) >= steps[kinds[p]] {
            ready[p] = true
            waiting[kinds[p]].append(p)
        }
        var net = [Int](repeating: 0, count: count)
        var touched = [Bool](repeating: false, count: count)
        var blocks: [PublishedBlock] = []
        for end in changes.keys.sorted() {
            // An interval's changes of a line are netted first: its activity is what the
            // interval changed, not how the store's rows happened to split it.
            var lines: [Int] = []
            for (p, delta) in changes[end]! {
                if !touched[p] { touched[p] = true; lines.append(p) }
                net[p] += delta
            }
            var activity = [Int](repeating: 0, count: steps.count)
            for p in lines {
                touched[p] = false
                let delta = net[p]
                net[p] = 0
                guard delta != 0 else { continue }
                carries[p] += delta
                activity[kinds[p]] += abs(delta)
                let isReady = abs(carries[p]) >= steps[kinds[p]]
                if isReady && !ready[p] { waiting[kinds[p]].append(p) }
                ready[p] = isReady
            }
            for kind in 0..<steps.count where !waiting[kind].isEmpty && activity[kind] >= steps[kind] {
                for p in waiting[kind].sorted(by: { ids[$0] < ids[$1] }) where ready[p] {
                    blocks.append(PublishedBlock(line: ids[p], key: keys[p], day: end, value: carries[p]))
                    carries[p] = 0
                    ready[p] = false
                }
                waiting[kind] = []
            }
        }
        for p in 0..<count where carries[p] != initial[p] { lines[ids[p]]!.carry = carries[p] }
        return blocks
    }
}
