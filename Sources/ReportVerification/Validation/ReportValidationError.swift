/// Every problem of a draft at once, in the order the fields were checked, so that a client can
/// fix them all in one round instead of one per submission.
public struct ReportValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems; never empty.
    public let problems: [FieldProblem]

    /// Wraps problems.
    public init(problems: [FieldProblem]) {
        self.problems = problems
    }

    /// The problems of one field path.
    public func problems(for field: String) -> [FieldProblem] {
        problems.filter { $0.field == field }
    }

    /// All problems, `; `-separated.
    public var description: String { problems.map(\.description).joined(separator: "; ") }
}
