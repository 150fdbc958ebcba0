import Aggregation
import DomainKernel

/// Reports and publications as a store keeps them, in memory, on maps made of numbered cells:
/// an area of a layer's version is a set of cells, a report lies in one cell, and an area's
/// interior point is its middle cell in number order (a stand-in for GEOS's point on surface:
/// computed from the area's shape alone). Publications hand the planner what the store would (reports by
/// class, line and day; the layers' versions; the maps' answers about lines' origins, computed
/// here the way `AreaSuccessions` computes them) and apply its assignments. Public numbers are
/// read from the blocks through their lines' current classes, as the store reads them.
struct LedgerCampus {
    struct Report {
        var kind: ReportKind
        var cell: Int
        var verifiedOn: Day
        var verified = true
        var line: Int64?
    }

    typealias Map = [String: Set<Int>]

    let planner: PublicationPlanner
    var reports: [Report] = []
    var ledger = PublicationLedger()
    var blocks: [PublishedBlock] = []
    /// Every version of every area layer, and the one published (nil: withdrawn).
    var versions: [String: [Int: Map]] = [:]
    var published: [String: Int] = [:]
    var publications = 0

    init(policy: DisclosurePolicy = .default, layers: [String: Map]) {
        planner = PublicationPlanner(policy: policy)
        for (name, map) in layers {
            versions[name] = [1: map]
            published[name] = 1
        }
    }

    /// The published map of `layer`.
    func map(_ layer: String) -> Map { published[layer].flatMap { versions[layer]?[$0] } ?? [:] }

    /// The area of a map holding `cell` (the smallest id where areas overlap, as an index picks one).
    static func area(holding cell: Int, in map: Map) -> String? {
        map.filter { $0.value.contains(cell) }.keys.min()
    }

    /// An area's interior point: its middle cell.
    static func interior(_ cells: Set<Int>) -> Int? {
        cells.isEmpty ? nil : cells.sorted()[cells.count / 2]
    }

    /// A report's areas on the published maps.
    func areas(of report: Report) -> [String: String] {
        var out: [String: String] = [:]
        for layer in published.keys { out[layer] = Self.area(holding: report.cell, in: map(layer)) }
        return out
    }

    func areaClass(of report: Report) -> AreaClass? {
        let areas = areas(of: report)
        return areas.isEmpty ? nil : AreaClass(areas.map { AreaRef(layer: $0.key, areaID: $0.value) })
    }

    /// Verifies reports in `cells` (one each, repeated as needed to make `n`) on `day`; returns their indexes.
    @discardableResult
    mutating func verify(_ n: Int, _ cells: [Int], on day: Day, kind: ReportKind = .covid) -> Range<Int> {
        let first = reports.count
        for i in 0..<n { reports.append(Report(kind: kind, cell: cells[i % cells.count], verifiedOn: day)) }
        return first..<reports.count
    }

    /// Revokes the first `n` verified reports in `cells`.
    mutating func revoke(_ n: Int, _ cells: [Int], kind: ReportKind = .covid) {
        let cells = Set(cells)
        var left = n
        for i in reports.indices where left > 0 && reports[i].verified && reports[i].kind == kind && cells.contains(reports[i].cell) {
            reports[i].verified = false
            left -= 1
        }
    }

    /// Publishes a new version of `layer` (a new layer when it has none); returns its number.
    @discardableResult
    mutating func newVersion(of layer: String, _ map: Map) -> Int {
        let version = (versions[layer]?.keys.max() ?? 0) + 1
        versions[layer, default: [:]][version] = map
        published[layer] = version
        return version
    }

    /// Publishes a stored version again (a rollback).
    mutating func rollBack(_ layer: String, to version: Int) {
        precondition(versions[layer]?[version] != nil)
        published[layer] = version
    }

    /// Edits a report's place: an edited report is new to the ledger, as the stores clear its line.
    mutating func edit(_ index: Int, to cell: Int) {
        reports[index].cell = cell
        reports[index].line = nil
    }

    /// Withdraws an area layer.
    mutating func withdraw(_ layer: String) {
        published[layer] = nil
    }

    /// The maps' answer to one question, as `AreaSuccessions` gives it: the same id with the same
    /// cells, else the area holding the origin area's interior point.
    func answer(_ q: AreaSuccession) -> String? {
        guard let from = versions[q.from.layer]?[q.from.version]?[q.from.areaID], let target = versions[q.layer]?[q.version] else { return nil }
        if q.from.layer == q.layer, target[q.from.areaID] == from { return q.from.areaID }
        guard let interior = Self.interior(from) else { return nil }
        return Self.area(holding: interior, in: target)
    }

    @discardableResult
    mutating func publish(_ day: Day, days: PublicationDays = .daily) -> PublicationPlan {
        var grouped: [VerifiedClassCount: Int] = [:]
        for r in reports where r.verified {
            guard let areaClass = areaClass(of: r) else { continue }
            grouped[VerifiedClassCount(key: LedgerKey(kind: r.kind, areaClass: areaClass), line: r.line, verifiedOn: r.verifiedOn, count: 0), default: 0] += 1
        }
        let rows = grouped.map { VerifiedClassCount(key: $0.key.key, line: $0.key.line, verifiedOn: $0.key.verifiedOn, count: $0.value) }
        let geography = published
        var answers: [AreaSuccession: String] = [:]
        for q in PublicationPlanner.questions(ledger: ledger, geography: geography) { answers[q] = answer(q) }
        var identities: [ClassOnMaps: String] = [:]
        for c in PublicationPlanner.identityQuestions(ledger: ledger, verified: rows, geography: geography) {
            identities[c] = LineIdentity.key(of: c.areaClass, geography: c.geography) { layer, area in
                versions[layer]?[c.geography[layer]!]?[area].map { $0.sorted().map(String.init).joined(separator: ",") }
            }
        }
        let plan = planner.plan(ledger: ledger, verified: rows, day: day, geography: geography, answers: answers, identities: identities, days: days)
        publications += 1
        var assign: [String: LineAssignment] = [:]
        func slot(_ kind: ReportKind, _ from: Int64?, _ areaClass: AreaClass) -> String { "\(kind)|\(from.map(String.init) ?? "-")|\(areaClass.key)" }
        for a in plan.assignments { assign[slot(a.kind, a.from, a.areaClass)] = a }
        for i in reports.indices where reports[i].verified {
            guard let areaClass = areaClass(of: reports[i]), let a = assign[slot(reports[i].kind, reports[i].line, areaClass)] else { continue }
            reports[i].line = a.to
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
        for area in map(layer).keys { out[area] = released(layer, area, kind: kind) }
        return out
    }

    /// What a line has released in all.
    func releasedBy(_ line: Int64) -> Int {
        blocks.filter { $0.line == line }.reduce(0) { $0 + $1.value }
    }

    /// Verified reports of a kind per line, as the store would count them.
    func accountedPerLine(kind: ReportKind = .covid) -> [Int64: Int] {
        var out: [Int64: Int] = [:]
        for r in reports where r.verified && r.kind == kind && areaClass(of: r) != nil { if let line = r.line { out[line, default: 0] += 1 } }
        return out
    }

    /// The line whose class is `areas` now (the oldest where several are).
    func line(of areas: [String: String], kind: ReportKind = .covid) -> LedgerLine? {
        let key = LedgerKey(kind: kind, areaClass: AreaClass(areas.map { AreaRef(layer: $0.key, areaID: $0.value) }))
        return ledger.lines.values.filter { $0.key == key }.min { $0.id < $1.id }
    }

    /// A line's class computed from its origin and the maps alone, independently of the planner:
    /// what the public can compute.
    func classFromMaps(_ line: LedgerLine) -> AreaClass {
        guard let origin = line.origin else { return line.key.areaClass }
        func cells(_ layer: String, _ version: Int, _ id: String) -> Set<Int> {
            guard let cells = versions[layer]?[version]?[id] else { preconditionFailure("no \(layer) v\(version) \(id) for line \(line.id) \(origin)") }
            return cells
        }
        var areas: [String: String] = [:]
        let reference = origin.geography.keys.sorted().lazy.compactMap { l in origin.entry(for: l)!.areaID.map { (l, origin.entry(for: l)!.version, $0) } }.first
        for (layer, version) in published {
            let target = versions[layer]?[version] ?? [:]
            let from: Set<Int>?
            if let entry = origin.entry(for: layer) {
                if entry.version == version {
                    areas[layer] = entry.areaID
                    continue
                }
                guard let id = entry.areaID else { continue }
                if target[id] == cells(layer, entry.version, id) {
                    areas[layer] = id
                    continue
                }
                from = cells(layer, entry.version, id)
            } else {
                from = reference.map { cells($0.0, $0.1, $0.2) }
            }
            if let interior = from.flatMap(Self.interior), let area = Self.area(holding: interior, in: target) { areas[layer] = area }
        }
        return AreaClass(areas.map { AreaRef(layer: $0.key, areaID: $0.value) })
    }
}
