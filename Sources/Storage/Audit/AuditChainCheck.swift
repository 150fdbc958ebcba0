/// Checks stored entries in sequence order, one at a time, as a backend reads them.
public struct AuditChainCheck: Sendable {
    private var tail = AuditTail.start
    /// The sequence number of the first entry that does not match, once one was seen.
    public private(set) var firstBroken: Int?

    public init() {}

    /// Checks the next stored entry. A gap in the numbering is a deleted entry; a different hash
    /// is an edited one.
    public mutating func check(sequence: Int, _ fields: AuditFields, storedHash: String) {
        guard firstBroken == nil else { return }
        let expected = tail.next(fields)
        if sequence != expected.sequence || storedHash != expected.hash { firstBroken = sequence; return }
        tail = expected
    }
}
