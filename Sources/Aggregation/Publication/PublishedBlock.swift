import DomainKernel

/// A released change of one ledger line: `value` verified reports (negative for revoked or moved
/// ones) of a kind in an area class, published as of `day`. Released blocks are the only atoms
/// of every public number: each count is a sum of whole blocks, and a block never changes once
/// released.
public struct PublishedBlock: Hashable, Sendable {
    /// The publication that released the block (0 while only planned).
    public var publication: Int64
    /// The ledger line it released.
    public let line: Int64
    /// The line's kind and its class now: a line whose areas changed counts its whole history
    /// for its new class.
    public var key: LedgerKey
    /// The day the block counts on: the day its release was decided, which is a verification day
    /// when a first publication replays history, else the publication's day.
    public let day: Day
    public let value: Int

    public init(publication: Int64 = 0, line: Int64 = 0, key: LedgerKey, day: Day, value: Int) {
        self.publication = publication
        self.line = line
        self.key = key
        self.day = day
        self.value = value
    }
}

/// Verified reports of one kind in one area class on one verification day, accounted to one
/// ledger line (or to none yet), as the store counts them when a publication is planned.
public struct VerifiedClassCount: Hashable, Sendable {
    public let key: LedgerKey
    /// The line the reports were accounted to by the last publication; nil for reports no
    /// publication has accounted yet.
    public let line: Int64?
    /// The day of the verification; nil when the store has none (counted on the publication day).
    public let verifiedOn: Day?
    public let count: Int

    public init(key: LedgerKey, line: Int64? = nil, verifiedOn: Day?, count: Int) {
        self.key = key
        self.line = line
        self.verifiedOn = verifiedOn
        self.count = count
    }
}
