import DomainKernel

extension Counters {
    /// Counts the contributions of every report in `columns` — the same cells, with the same
    /// counts, as summing `contributions(of:)` over the reports — limited to `bases`.
    ///
    /// Placements are first bucketed by place (a counting sort), then each place's cells are
    /// counted in one small dense array indexed by packed (basis, day, kind, status, group) and
    /// emitted from the list of cells it touched. Memory access stays inside a cache-sized array
    /// instead of probing a hash table of a million string keys; no key is built until asked for.
    public static func recount(_ columns: ReportColumns, bases: [TimeBasis] = TimeBasis.allCases) -> CounterCells {
        let verified = columns.statuses.firstIndex(of: .verified).map(Int32.init) ?? -1
        let counts = (occurred: bases.contains(.occurred), submitted: bases.contains(.submitted), verified: bases.contains(.verified))
        func verifiedDay(_ r: Int) -> Int32? {
            counts.verified && columns.status[r] == verified && columns.verifiedOn[r] != ReportColumns.noDay ? columns.verifiedOn[r] : nil
        }
        var low = Int32.max, high = Int32.min
        for r in 0..<columns.count {
            if counts.occurred { low = min(low, columns.occurredOn[r]); high = max(high, columns.occurredOn[r]) }
            if counts.submitted { low = min(low, columns.submittedOn[r]); high = max(high, columns.submittedOn[r]) }
            if let day = verifiedDay(r) { low = min(low, day); high = max(high, day) }
        }
        if low > high { (low, high) = (0, 0) }
        let layout = CounterCellLayout(firstDay: Int(low), days: Int(high) - Int(low) + 1, kinds: max(1, columns.kinds.count),
                                       statuses: max(1, columns.statuses.count), groups: max(1, columns.groups.count))
        var cells = CounterCells(columns: columns, layout: layout)

        // Placements of each place together: start[p]..<start[p + 1] in `reports`.
        var start = [Int](repeating: 0, count: columns.places.count + 1)
        for place in columns.placementPlace { start[Int(place) + 1] += 1 }
        for p in columns.places.indices { start[p + 1] += start[p] }
        var next = start
        var reports = [Int32](repeating: 0, count: columns.placementPlace.count)
        for (i, place) in columns.placementPlace.enumerated() {
            reports[next[Int(place)]] = columns.placementReport[i]
            next[Int(place)] += 1
        }

        func each(_ place: Int, _ body: (Int) -> Void) {
            for j in start[place]..<start[place + 1] {
                let r = Int(reports[j])
                let kind = Int(columns.kind[r]), status = Int(columns.status[r]), group = Int(columns.group[r])
                func key(_ basis: TimeBasis, _ day: Int32) -> Int {
                    layout.pack(basis: basis == .occurred ? 0 : basis == .submitted ? 1 : 2, day: Int(day), kind: kind, status: status, group: group)
                }
                if counts.occurred { body(key(.occurred, columns.occurredOn[r])) }
                if counts.submitted { body(key(.submitted, columns.submittedOn[r])) }
                if let day = verifiedDay(r) { body(key(.verified, day)) }
            }
        }
        if layout.size <= 1 << 22 {
            // Packing is linear: a report's cell on day d by basis b is (b × days + d − first) × width + offset.
            let width = layout.kinds * layout.statuses * layout.groups, first = layout.firstDay, days = layout.days
            let kind = columns.kind, status = columns.status, group = columns.group
            let occurredOn = columns.occurredOn, submittedOn = columns.submittedOn, verifiedOn = columns.verifiedOn
            cells.reserveCapacity(min(layout.size * columns.places.count, reports.count * bases.count))
            var scratch = [Int32](repeating: 0, count: layout.size)
            var touched: [Int] = []
            scratch.withUnsafeMutableBufferPointer { scratch in
                func bump(_ cell: Int) {
                    if scratch[cell] == 0 { touched.append(cell) }
                    scratch[cell] &+= 1
                }
                for place in columns.places.indices {
                    for j in start[place]..<start[place + 1] {
                        let r = Int(reports[j])
                        let offset = (Int(kind[r]) * layout.statuses + Int(status[r])) * layout.groups + Int(group[r])
                        if counts.occurred { bump((Int(occurredOn[r]) - first) * width + offset) }
                        if counts.submitted { bump((days + Int(submittedOn[r]) - first) * width + offset) }
                        if counts.verified, status[r] == verified, verifiedOn[r] != ReportColumns.noDay {
                            bump((2 * days + Int(verifiedOn[r]) - first) * width + offset)
                        }
                    }
                    for cell in touched {
                        cells.append(place: Int32(place), packed: cell, count: scratch[cell])
                        scratch[cell] = 0
                    }
                    touched.removeAll(keepingCapacity: true)
                }
            }
        } else {
            // Ranges too wide for a dense array (years of days, many kinds): a hash table per place.
            for place in columns.places.indices {
                var table: [Int: Int32] = [:]
                each(place) { table[$0, default: 0] += 1 }
                for (cell, count) in table { cells.append(place: Int32(place), packed: cell, count: count) }
            }
        }
        return cells
    }
}
