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

extension PublicationLedger {
    /// What turns `previous` into this ledger: the lines to write (new or changed) and the keys
    /// to remove. A publication after one verification changes one line of a layer's thousands,
    /// so the store writes that one instead of the whole ledger (which at 300,000 areas took
    /// seconds of each publication).
    public func changes(since previous: PublicationLedger) -> (write: [(key: LedgerKey, entry: Entry)], remove: [LedgerKey]) {
        let write = entries.compactMap { key, entry in previous.entries[key] == entry ? nil : (key: key, entry: entry) }
        let remove = previous.entries.keys.filter { entries[$0] == nil }
        return (write, remove)
    }
}
