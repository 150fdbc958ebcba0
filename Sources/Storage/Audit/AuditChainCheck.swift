/// Checks stored entries in sequence order, one at a time, as a backend reads them.
///
/// A keyed entry is recomputed under the key; an unkeyed one in its original form, but only
/// before the key's first sequence and before any keyed entry: a chain rewritten without the key
/// cannot pass itself off as an old one.
public struct AuditChainCheck: Sendable {
    private var tail: AuditTail
    private var sawKeyed = false
    /// The sequence number of the first entry that does not match, once one was seen.
    public private(set) var firstBroken: Int?

    public init(key: AuditKey?) {
        tail = .start(key)
    }

    /// Checks the next stored entry. A gap in the numbering is a deleted entry; a different hash
    /// is an edited one.
    public mutating func check(sequence: Int, _ fields: AuditFields, storedHash: String) {
        guard firstBroken == nil else { return }
        let keyed = storedHash.hasPrefix(AuditChain.keyedPrefix)
        let key = tail.key
        if !keyed, sawKeyed || key.map({ sequence >= $0.keyedFrom }) == true { firstBroken = sequence; return }
        if keyed, key == nil { firstBroken = sequence; return }
        sawKeyed = sawKeyed || keyed
        let next = tail.sequence + 1
        let expected = AuditTail(sequence: next, hash: AuditChain.hash(previous: tail.hash, sequence: next, fields, key: keyed ? key : nil), key: key)
        if sequence != expected.sequence || storedHash != expected.hash { firstBroken = sequence; return }
        tail = expected
    }
}
