import DomainKernel

/// One line of the publication ledger: reports of one kind accounted together, released in
/// blocks, and the area class their blocks count for.
///
/// A line is not its class. Its reports stay with it when the areas change around them: a new
/// layer, a renamed or merged area, a withdrawn layer give the line a new class, and its released
/// history and its carry go along, so no public number moves by the carry (before lines, every
/// report of a renamed area left its class and the old class gave back what it had released while
/// the new one released its whole total: the difference was exactly the hidden carry).
public struct LedgerLine: Sendable, Hashable {
    /// Lines are numbered 1, 2, … as publications open them; the number never changes.
    public let id: Int64
    /// The kind and the class the line's blocks count for, now.
    public var key: LedgerKey
    /// Verified reports accounted to the line at the last publication.
    public var accounted: Int
    /// The net change not yet released: `accounted` minus the sum of the line's released blocks.
    public var carry: Int

    public init(id: Int64, key: LedgerKey, accounted: Int, carry: Int) {
        self.id = id
        self.key = key
        self.accounted = accounted
        self.carry = carry
    }
}

/// Which reports a publication accounts to which line: those of `kind` in `areaClass` that were
/// accounted to `from` (nil: to no line yet) now belong to `to`, settled (kept in a line whose
/// class they do not lie in, for good) or not.
public struct LineAssignment: Sendable, Hashable {
    public let kind: ReportKind
    public let from: Int64?
    public let areaClass: AreaClass
    public let to: Int64
    public let settle: Bool

    public init(kind: ReportKind, from: Int64?, areaClass: AreaClass, to: Int64, settle: Bool = false) {
        self.kind = kind
        self.from = from
        self.areaClass = areaClass
        self.to = to
        self.settle = settle
    }
}
