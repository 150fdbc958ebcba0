import DomainKernel

/// One line of the publication ledger: reports of one kind accounted together, released in
/// blocks, and the area class their blocks count for.
///
/// A line is not its class. A report accounted to a line stays in it for good (only a change of
/// its status or an edit takes it out, through the carry), whatever the areas do around it; the
/// line's class is decided from its origin and the maps alone (`LineLineage`), so its released
/// history and its carry go along and no public number moves by a carry (before lines, every
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
    /// Where the line was opened; nil for a line kept before origins were (the planner gives it
    /// its class and the maps of the last publication).
    public var origin: LineOrigin?
    /// Which reports the line takes: those of the class its identity names on the maps
    /// (`LineIdentity`); nil for a line kept before identities were (the planner gives it its
    /// origin's).
    public var identity: String?

    public init(id: Int64, key: LedgerKey, accounted: Int, carry: Int, origin: LineOrigin? = nil, identity: String? = nil) {
        self.id = id
        self.key = key
        self.accounted = accounted
        self.carry = carry
        self.origin = origin
        self.identity = identity
    }
}

/// Which reports a publication accounts to which line: those of `kind` in `areaClass` that were
/// accounted to `from` (nil: to no line yet, or to a line that no longer holds them) now belong
/// to `to`. Only reports new to the ledger are ever assigned: an accounted report stays in its
/// line.
public struct LineAssignment: Sendable, Hashable {
    public let kind: ReportKind
    public let from: Int64?
    public let areaClass: AreaClass
    public let to: Int64

    public init(kind: ReportKind, from: Int64?, areaClass: AreaClass, to: Int64) {
        self.kind = kind
        self.from = from
        self.areaClass = areaClass
        self.to = to
    }
}
