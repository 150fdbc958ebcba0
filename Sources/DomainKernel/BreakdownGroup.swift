/// A group that statistics break a report kind's counts down by (a COVID self-reporter's
/// affiliation: student, faculty, staff). A report outside every group has none (`nil`); there is
/// no empty name. The name is what counters store and releases publish (`groups.student`).
///
/// Deliberately not `ExpressibleByStringLiteral`: a literal `""` would then compile into a group
/// with no name, the very value this type exists to rule out.
public struct BreakdownGroup: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let name: String

    /// A group by its name; nil for the empty name, which is how a column writes "no group".
    public init?(_ name: String) {
        guard !name.isEmpty else { return nil }
        self.name = name
    }

    /// The name as a column stores it: "" for no group, because the counters' primary key
    /// includes the group and SQL's NULL is never equal to itself there.
    public static func column(_ group: BreakdownGroup?) -> String { group?.name ?? "" }

    public var description: String { name }

    public static func < (a: BreakdownGroup, b: BreakdownGroup) -> Bool { a.name < b.name }
}
