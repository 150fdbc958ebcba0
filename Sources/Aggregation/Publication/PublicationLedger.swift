import DomainKernel

/// What publication has accounted for so far: per ledger line, the verified reports seen at the
/// last publication and the part of them not yet released. Private: it is what makes the next
/// publication safe, and it holds exactly the small numbers the public must not learn.
public struct PublicationLedger: Sendable, Equatable {
    /// One ledger line's state.
    public struct Entry: Sendable, Hashable {
        /// Verified reports of the line at the last publication.
        public var accounted: Int
        /// The net change not yet released: `accounted` minus the sum of the line's released blocks.
        public var carry: Int

        public init(accounted: Int, carry: Int) {
            self.accounted = accounted
            self.carry = carry
        }
    }

    public var entries: [LedgerKey: Entry]
    /// The day of the last publication; nil before the first.
    public var lastDay: Day?

    public init(entries: [LedgerKey: Entry] = [:], lastDay: Day? = nil) {
        self.entries = entries
        self.lastDay = lastDay
    }
}
