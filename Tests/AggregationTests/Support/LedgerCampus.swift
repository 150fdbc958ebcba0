import Aggregation
import DomainKernel

/// Reports and publications as a store keeps them, in memory: each verified report remembers
/// the line the last publication accounted it to, publications hand the planner what the store
/// would (reports by class, line and day; the layers' versions; which of the lines' areas still
/// exist) and apply its assignments. Public numbers are read from the blocks through their
/// lines' current classes, as the store reads them.
struct LedgerCampus {
    struct Report {
        var kind: ReportKind
        var areas: [String: String]
        var verifiedOn: Day
        var verified = true
        var line: Int64?
        var settled = false

        var areaClass: AreaClass? {
            areas.isEmpty ? nil : AreaClass(areas.map { AreaRef(layer: $0.key, areaID: $0.value) })
        }
    }

    let planner: PublicationPlanner
    var reports: [Report] = []
    var ledger = PublicationLedger()
    var blocks: [PublishedBlock] = []
    /// Area layers: their published version and area ids.
    var layers: [String: (version: Int, areas: Set<String>)] = [:]
    var publications = 0

    init(policy: DisclosurePolicy = .default, layers: [String: Set<String>]) {
        planner = PublicationPlanner(policy: policy)
        for (name, areas) in layers { self.layers[name] = (1, areas) }
    }

    /// Verifies `n` reports placed in `areas` (layer → area id) on `day`; returns their indexes.
    @discardableResult
    mutating func verify(_ n: Int, _ areas: [String: String], on day: Day, kind: ReportKind = .covid) -> Range<Int> {
        let first = reports.count
        for _ in 0..<n { reports.append(Report(kind: kind, areas: areas, verifiedOn: day)) }
        return first..<reports.count
    }

    /// Revokes the first `n` verified reports placed in `areas`.
    mutating func revoke(_ n: Int, _ areas: [String: String], kind: ReportKind = .covid) {
        var left = n
        for i in reports.indices where left > 0 && reports[i].verified && reports[i].kind == kind && reports[i].areas == areas {
            reports[i].verified = false
            left -= 1
        }
    }

    /// Publishes a new version of `layer` with `areas`, every report placed again by `place`
    /// (its current areas in; the new area in `layer`, or nil for none).
    mutating func newVersion(of layer: String, areas: Set<String>, place: ([String: String]) -> String?) {
        layers[layer] = ((layers[layer]?.version ?? 0) + 1, areas)
        for i in reports.indices { reports[i].areas[layer] = place(reports[i].areas) }
    }

    /// Edits a report's areas: an edited report is new to the ledger, as the stores clear its line.
    mutating func edit(_ index: Int, to areas: [String: String]) {
        reports[index].areas = areas
        reports[index].line = nil
        reports[index].settled = false
    }

    /// Withdraws an area layer: reports lose their area in it.
    mutating func withdraw(_ layer: String) {
        layers[layer] = nil
        for i in reports.indices { reports[i].areas[layer] = nil }
    }

    @discardableResult
    mutating func publish(_ day: Day, days: PublicationDays = .daily) -> PublicationPlan {
        var grouped: [VerifiedClassCount: Int] = [:]
        for r in reports where r.verified {
            guard let areaClass = r.areaClass else { continue }
            grouped[VerifiedClassCount(key: LedgerKey(kind: r.kind, areaClass: areaClass), line: r.line, settled: r.settled, verifiedOn: r.verifiedOn,
                                       count: 0), default: 0] += 1
        }
        let rows = grouped.map { VerifiedClassCount(key: $0.key.key, line: $0.key.line, settled: $0.key.settled, verifiedOn: $0.key.verifiedOn, count: $0.value) }
        let geography = layers.mapValues(\.version)
        let changed = PublicationPlanner.changedLayers(from: ledger.geography, to: geography)
        let existing = ledger.areas(in: changed).filter { layers[$0.layer]?.areas.contains($0.areaID) ?? false }
        let plan = planner.plan(ledger: ledger, verified: rows, day: day, geography: geography, existingAreas: existing, days: days)
        publications += 1
        var assign: [String: LineAssignment] = [:]
        func slot(_ kind: ReportKind, _ from: Int64?, _ areaClass: AreaClass) -> String { "\(kind)|\(from.map(String.init) ?? "-")|\(areaClass.key)" }
        for a in plan.assignments { assign[slot(a.kind, a.from, a.areaClass)] = a }
        for i in reports.indices where reports[i].verified {
            guard let areaClass = reports[i].areaClass, let a = assign[slot(reports[i].kind, reports[i].line, areaClass)] else { continue }
            reports[i].line = a.to
            reports[i].settled = a.settle
        }
        blocks += plan.blocks.map { b in
            var b = b
            b.publication = Int64(publications)
            return b
        }
        ledger = plan.ledger
        return plan
    }

    /// The released number of an area of a layer: its lines' blocks, through their classes now.
    func released(_ layer: String, _ area: String, kind: ReportKind = .covid, through publication: Int? = nil) -> Int {
        blocks.reduce(0) { sum, block in
            guard block.key.kind == kind, publication.map({ block.publication <= Int64($0) }) ?? true,
                  ledger.lines[block.line]?.key.areaClass.area(in: layer) == area else { return sum }
            return sum + block.value
        }
    }

    /// Every area's released number in a layer.
    func releasedLayer(_ layer: String, kind: ReportKind = .covid) -> [String: Int] {
        var out: [String: Int] = [:]
        for area in layers[layer]?.areas ?? [] { out[area] = released(layer, area, kind: kind) }
        return out
    }

    /// Verified reports of a kind per line, as the store would count them.
    func accountedPerLine(kind: ReportKind = .covid) -> [Int64: Int] {
        var out: [Int64: Int] = [:]
        for r in reports where r.verified && r.kind == kind && r.areaClass != nil { if let line = r.line { out[line, default: 0] += 1 } }
        return out
    }
}
