/// The row space of the published equations, kept in reduced echelon form: a target sum is
/// derivable from published numbers exactly when it reduces to zero against it.
struct RowSpace {
    private var rows: [(pivot: Int, row: [Fraction])] = []

    /// Adds an equation's coefficient row.
    mutating func add(_ coefficients: [Int]) {
        var row = reduce(coefficients.map { Fraction($0) })
        guard let pivot = row.firstIndex(where: { !$0.isZero }) else { return }
        let lead = row[pivot]
        row = row.map { $0 / lead }
        for i in rows.indices where !rows[i].row[pivot].isZero {
            let factor = rows[i].row[pivot]
            rows[i].row = zip(rows[i].row, row).map { $0 - factor * $1 }
        }
        rows.append((pivot, row))
    }

    /// Whether some linear combination of the added rows equals `coefficients`.
    func contains(_ coefficients: [Int]) -> Bool {
        reduce(coefficients.map { Fraction($0) }).allSatisfy(\.isZero)
    }

    private func reduce(_ vector: [Fraction]) -> [Fraction] {
        var v = vector
        for (pivot, row) in rows where !v[pivot].isZero {
            let factor = v[pivot]
            v = zip(v, row).map { $0 - factor * $1 }
        }
        return v
    }
}
