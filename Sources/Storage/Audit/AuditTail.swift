/// The newest entry of the audit trail: what the next entry chains to.
public struct AuditTail: Sendable, Equatable {
    public let sequence: Int
    public let hash: String

    /// The tail of an empty trail.
    public static let start = AuditTail(sequence: 0, hash: AuditChain.genesis)

    public init(sequence: Int, hash: String) {
        self.sequence = sequence
        self.hash = hash
    }

    /// The entry that follows this one: its sequence number and hash, which is also the tail
    /// after it is appended.
    public func next(_ fields: AuditFields) -> AuditTail {
        AuditTail(sequence: sequence + 1, hash: AuditChain.hash(previous: hash, sequence: sequence + 1, fields))
    }
}
