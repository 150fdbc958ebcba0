import Aggregation

/// What an attacker can derive from one release, by two kinds of reasoning.
enum Attacker {
    /// Sets of cells with a true count in 1..<k whose count is a linear combination of the
    /// published numbers (exact Gaussian elimination over the rationals).
    static func linearLeaks(_ table: AttackTable, _ release: ReleasedLayerStatistics, k: Int) -> [String] {
        linearLeaks(table, table.statements(of: release), k: k)
    }

    /// `linearLeaks` over any list of statements (e.g. a naive release made by a test).
    static func linearLeaks(_ table: AttackTable, _ statements: [AttackTable.Statement], k: Int) -> [String] {
        var space = RowSpace()
        for s in statements where s.released != nil { space.add(s.coefficients) }
        let candidates = table.targets + statements.filter { $0.released == nil && $0.coefficients.allSatisfy { $0 >= 0 } }.map { ($0.name, $0.coefficients) }
        return candidates.compactMap { name, coefficients in
            let count = table.value(of: coefficients)
            return (1..<k).contains(count) && space.contains(coefficients) ? "\(name) = \(count)" : nil
        }
    }

    /// Suppressed numbers whose feasible range is a single value. The attacker knows the
    /// published equations, that cells are ≥ 0, and that every suppressed count is ≥ 1 (zeros
    /// are shown). A suppressed number is shown not to be pinned by a witness: another feasible
    /// table, one report moved between two cells (or added to a cell no equation sees), on which
    /// it differs. Returns the suppressed numbers for which no witness exists.
    static func pinnedSuppressed(_ table: AttackTable, _ release: ReleasedLayerStatistics) -> [String] {
        pinnedSuppressed(table, table.statements(of: release))
    }

    /// `pinnedSuppressed` over any list of statements.
    static func pinnedSuppressed(_ table: AttackTable, _ statements: [AttackTable.Statement]) -> [String] {
        let published = statements.filter { $0.released != nil }.map(\.coefficients)
        let suppressed = statements.filter { $0.released == nil && $0.coefficients.allSatisfy { $0 >= 0 } }
        let x = table.values
        let n = x.count
        let signature = (0..<n).map { c in published.map { $0[c] } }
        let unseen = signature.map { $0.allSatisfy { $0 == 0 } }
        let suppressedValues = suppressed.map { table.value(of: $0.coefficients) }
        // Moving one report from c to d keeps every published number and every suppressed count ≥ 1.
        var feasible = [[Bool]](repeating: [Bool](repeating: false, count: n), count: n)
        for c in 0..<n where x[c] >= 1 {
            for d in 0..<n where d != c && signature[c] == signature[d] {
                feasible[c][d] = suppressed.indices.allSatisfy { w in
                    suppressedValues[w] - suppressed[w].coefficients[c] + suppressed[w].coefficients[d] >= 1
                }
            }
        }
        return suppressed.compactMap { v in
            for c in 0..<n where unseen[c] && v.coefficients[c] != 0 { return nil }   // add one report to c
            for c in 0..<n {
                for d in 0..<n where feasible[c][d] && v.coefficients[c] != v.coefficients[d] { return nil }
            }
            return v.name
        }
    }

    /// Problems a reader could see without any algebra: a shown number that is wrong, a
    /// suppressed count that is 0, a change or rate shown though what it is made of is not.
    static func visibleProblems(_ table: AttackTable, _ release: ReleasedLayerStatistics) -> [String] {
        var problems: [String] = []
        for s in table.statements(of: release) {
            let truth = table.value(of: s.coefficients)
            if let shown = s.released, shown != truth { problems.append("\(s.name) shows \(shown), truth \(truth)") }
            if s.released == nil, s.coefficients.allSatisfy({ $0 >= 0 }), truth == 0 { problems.append("\(s.name) is a suppressed zero") }
        }
        let scopes = table.areaIDs.map { ($0, release.areas[$0]!) } + [("total", release.total)]
        for (name, stats) in scopes {
            for window in Window.allCases {
                let countShown = !stats.counts[window]!.isSuppressed
                if let rate = stats.ratePer1000?[window], !rate.isSuppressed, !countShown { problems.append("\(name) rate \(window) without count") }
                if let change = stats.change[window], !change.isSuppressed,
                   !countShown || stats.previous[window]!.isSuppressed { problems.append("\(name) change \(window) without its parts") }
            }
        }
        return problems
    }
}
