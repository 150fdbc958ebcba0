import Aggregation
import DomainKernel
import GeoserveApp

/// Publications over a synthetic layer as the store would make them: every verified report so
/// far handed over by class, the line the last publication accounted it to, and day; the
/// planner's assignments kept. For `geoserve bench publication`, which has one class per area and
/// no change of the areas.
struct BenchPublicationReplay {
    let planner: PublicationPlanner
    let keys: [LedgerKey]
    let first: Day
    private(set) var ledger = PublicationLedger()
    private(set) var blocks: [PublishedBlock] = []
    /// Released so far per area.
    private(set) var released: [Int]
    private var lineOf: [LedgerKey: Int64] = [:]
    /// The last day a publication accounted for (days before `first`: none yet).
    private var accountedThrough = -1

    init(planner: PublicationPlanner, keys: [LedgerKey], first: Day) {
        self.planner = planner
        self.keys = keys
        self.first = first
        released = Array(repeating: 0, count: keys.count)
    }

    /// Publishes on day index `day` from `truth[area][day]`; returns the plan.
    @discardableResult
    mutating func publish(_ truth: [[Int]], day: Int, days: PublicationDays = .daily) -> PublicationPlan {
        let plan = planner.plan(ledger: ledger, verified: rows(truth, through: day), day: first.adding(days: day), days: days)
        record(plan, through: day)
        return plan
    }

    /// What the store would hand a publication on day index `day`.
    func rows(_ truth: [[Int]], through day: Int) -> [VerifiedClassCount] {
        var rows: [VerifiedClassCount] = []
        rows.reserveCapacity(keys.count * (day + 1))
        for a in keys.indices { for d in 0...day where truth[a][d] > 0 {
            rows.append(VerifiedClassCount(key: keys[a], line: d <= accountedThrough ? lineOf[keys[a]] : nil, verifiedOn: first.adding(days: d),
                                           count: truth[a][d]))
        } }
        return rows
    }

    /// Takes the ledger, blocks and assignments of a plan made from `rows(_:through: day)`.
    mutating func record(_ plan: PublicationPlan, through day: Int) {
        accountedThrough = day
        ledger = plan.ledger
        for assignment in plan.assignments where assignment.from == nil {
            lineOf[LedgerKey(kind: assignment.kind, areaClass: assignment.areaClass)] = assignment.to
        }
        let index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($0.element, $0.offset) })
        for block in plan.blocks { if let a = index[block.key] { released[a] += block.value } }
        blocks += plan.blocks
    }
}
