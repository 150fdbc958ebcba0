import DomainKernel

/// The nonzero counter cells of a recount in packed form: per cell a place (layer and area), a
/// packed (basis, day, kind, status, group) and the count. `CounterKey`s, with their five
/// strings each, are built only when asked for (`forEach`, `table`).
public struct CounterCells: Sendable {
    let columns: ReportColumns
    let layout: CounterCellLayout
    /// Per nonzero cell.
    public private(set) var place: [Int32] = []
    var packed: [Int] = []
    public private(set) var count: [Int32] = []

    init(columns: ReportColumns, layout: CounterCellLayout) {
        self.columns = columns
        self.layout = layout
    }

    mutating func reserveCapacity(_ n: Int) {
        place.reserveCapacity(n)
        packed.reserveCapacity(n)
        count.reserveCapacity(n)
    }

    mutating func append(place: Int32, packed: Int, count: Int32) {
        self.place.append(place)
        self.packed.append(packed)
        self.count.append(count)
    }

    /// The number of nonzero cells.
    public var cellCount: Int { count.count }

    /// Every nonzero cell as a key and its count, in no particular order.
    public func forEach(_ body: (CounterKey, Int) -> Void) {
        for i in count.indices {
            let p = columns.places[Int(place[i])], c = layout.unpack(packed[i])
            body(CounterKey(layer: p.layer, areaID: p.areaID, kind: columns.kinds[c.kind], status: columns.statuses[c.status],
                            basis: c.basis, day: Day(ordinal: c.day), group: columns.groups[c.group]), Int(count[i]))
        }
    }

    /// The cells as a `CounterTable`.
    public var table: CounterTable {
        var counts: [CounterKey: Int] = [:]
        counts.reserveCapacity(cellCount)
        forEach { counts[$0] = $1 }
        return CounterTable(counts: counts)
    }
}

/// How (basis, day, kind, status, group) is packed into one integer within a place: mixed radix
/// over the ranges that occur, so that one place's cells fit a small dense array.
struct CounterCellLayout: Sendable {
    let firstDay: Int
    let days: Int
    let kinds: Int
    let statuses: Int
    let groups: Int

    var size: Int { TimeBasis.allCases.count * days * kinds * statuses * groups }

    func pack(basis: Int, day: Int, kind: Int, status: Int, group: Int) -> Int {
        (((basis * days + day - firstDay) * kinds + kind) * statuses + status) * groups + group
    }

    func unpack(_ packed: Int) -> (basis: TimeBasis, day: Int, kind: Int, status: Int, group: Int) {
        var rest = packed
        let group = rest % groups; rest /= groups
        let status = rest % statuses; rest /= statuses
        let kind = rest % kinds; rest /= kinds
        let day = rest % days + firstDay; rest /= days
        return (TimeBasis.allCases[rest], day, kind, status, group)
    }
}
