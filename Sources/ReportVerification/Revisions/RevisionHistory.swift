import Foundation

/// The kept revisions of an edited value (a report's content): every edit appends a revision,
/// only the newest `limit` are kept, and any kept one can be restored — which appends a copy, so
/// that a restore is itself undoable and the history only ever grows forward.
///
/// This is the death-scene forms' rule ("count > 5 → delete the oldest version"; "revert the form
/// to a previous version") as a pure value, so that storage and tests share one definition.
/// Invariants: never empty; numbers consecutive and increasing; at most `limit` revisions; the
/// last is the current state.
public struct RevisionHistory<Value> {
    /// How many revisions are kept; at least 1, since the current state is always kept.
    public private(set) var limit: Int
    /// The kept revisions, oldest first.
    public private(set) var revisions: [Revision<Value>]

    /// Starts a history whose first revision (number 1) is the value as submitted.
    /// - Parameter limit: revisions to keep; values below 1 are taken as 1, because a history
    ///   must at least hold the current state.
    public init(_ initial: Value, at date: Date, by author: String, keeping limit: Int = ReportLimits.revisionsKept) {
        self.limit = max(1, limit)
        revisions = [Revision(number: 1, value: initial, recordedAt: date, author: author)]
    }

    /// Adopts revisions whose invariants the caller has checked (decoding does).
    init(checkedLimit limit: Int, revisions: [Revision<Value>]) {
        self.limit = limit
        self.revisions = revisions
    }

    /// The newest revision: the value's current state.
    public var current: Revision<Value> {
        // Never empty by construction and by decoding.
        revisions[revisions.count - 1]
    }

    /// The numbers of the kept revisions.
    public var keptNumbers: ClosedRange<Int> { revisions[0].number...current.number }

    /// A kept revision by number.
    public func revision(_ number: Int) -> Revision<Value>? {
        guard keptNumbers.contains(number) else { return nil }
        // Numbers are consecutive, so the index follows from the number.
        return revisions[number - revisions[0].number]
    }

    /// Records a new state, then drops the oldest beyond the limit. Every call makes a revision,
    /// even for an unchanged value: the history records who saved when, not only what changed.
    @discardableResult
    public mutating func append(_ value: Value, at date: Date, by author: String) -> Revision<Value> {
        record(Revision(number: current.number + 1, value: value, recordedAt: date, author: author))
    }

    /// Makes a kept revision's value current again, as a new revision that remembers its source.
    /// Restoring the current revision is allowed and simply records it again.
    /// - Throws: `RevisionError.pruned` for a revision no longer kept, `.unknown` for one that
    ///   never existed.
    @discardableResult
    public mutating func restore(_ number: Int, at date: Date, by author: String) throws(RevisionError) -> Revision<Value> {
        guard let source = revision(number) else {
            throw (1..<revisions[0].number).contains(number) ? .pruned(number) : .unknown(number)
        }
        return record(Revision(number: current.number + 1, value: source.value, recordedAt: date, author: author,
                               restoredFrom: source.number))
    }

    /// Sets how many revisions are kept and drops the oldest beyond it (e.g. after the operator
    /// lowered the setting). Values below 1 are taken as 1.
    public mutating func prune(keepingLast limit: Int) {
        self.limit = max(1, limit)
        prune()
    }

    private mutating func record(_ revision: Revision<Value>) -> Revision<Value> {
        revisions.append(revision)
        prune()
        return revision
    }

    private mutating func prune() {
        if revisions.count > limit { revisions.removeFirst(revisions.count - limit) }
    }
}

extension RevisionHistory: Sendable where Value: Sendable {}
extension RevisionHistory: Equatable where Value: Equatable {}
extension RevisionHistory: Hashable where Value: Hashable {}
