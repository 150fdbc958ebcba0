import DomainKernel

/// What publication has accounted for so far: the ledger lines with their carries, the day of
/// the last publication and the area layers it saw. Private: it holds exactly the small numbers
/// the public must not learn.
public struct PublicationLedger: Sendable, Equatable {
    public var lines: [Int64: LedgerLine]
    /// The day of the last publication; nil before the first.
    public var lastDay: Day?
    /// The published version of each area layer at the last publication: lines' classes are
    /// decided again only when a layer changed (see `LineLineage`).
    public var geography: [String: Int]

    public init(lines: [LedgerLine] = [], lastDay: Day? = nil, geography: [String: Int] = [:]) {
        self.lines = Dictionary(uniqueKeysWithValues: lines.map { ($0.id, $0) })
        self.lastDay = lastDay
        self.geography = geography
    }

    init(lines: [Int64: LedgerLine], lastDay: Day?, geography: [String: Int]) {
        self.lines = lines
        self.lastDay = lastDay
        self.geography = geography
    }

    /// The next free line number.
    public var nextLineID: Int64 { (lines.keys.max() ?? 0) + 1 }
}

extension PublicationLedger {
    /// The lines to write (new or changed) to turn `previous` into this ledger. A publication
    /// after one verification changes one line of a layer's thousands, so the store writes that
    /// one instead of the whole ledger (which at 300,000 areas took seconds of each publication).
    /// Lines are never removed: their released blocks name them.
    public func changes(since previous: PublicationLedger) -> [LedgerLine] {
        lines.values.filter { previous.lines[$0.id] != $0 }.sorted { $0.id < $1.id }
    }

}
