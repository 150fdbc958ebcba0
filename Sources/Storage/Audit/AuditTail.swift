/// The newest entry of the audit trail: what the next entry chains to, and the key the next
/// entry is kept with.
public struct AuditTail: Sendable {
    public let sequence: Int
    public let hash: String
    let key: AuditKey?

    /// The tail of an empty trail.
    public static func start(_ key: AuditKey?) -> AuditTail { AuditTail(sequence: 0, hash: AuditChain.genesis, key: key) }

    public init(sequence: Int, hash: String, key: AuditKey?) {
        self.sequence = sequence
        self.hash = hash
        self.key = key
    }

    /// The entry that follows this one: its sequence number and hash, which is also the tail
    /// after it is appended.
    public func next(_ fields: AuditFields) -> AuditTail {
        AuditTail(sequence: sequence + 1, hash: AuditChain.hash(previous: hash, sequence: sequence + 1, fields, key: key), key: key)
    }
}
