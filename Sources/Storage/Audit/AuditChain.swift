import Crypto
import DomainKernel
import Foundation
import GeoCore
import ReportVerification

/// The hash chain of the audit trail: each entry's hash is SHA-256 over the previous entry's
/// hash and the entry's fields, so changing or removing any entry changes every later hash.
///
/// Backend-neutral: backends store the entries; the linking and the check are here.
public enum AuditChain {
    /// The "previous hash" of the first entry.
    public static let genesis = String(repeating: "0", count: 64)

    /// The hash of an entry with the given fields that follows `previous`.
    public static func hash(previous: String, sequence: Int, _ fields: AuditFields) -> String {
        // Fields are separated by the ASCII unit separator, which no field may contain unescaped.
        let parts = [previous, String(sequence), fields.reportID ?? "", fields.actor, fields.at, fields.action,
                     fields.from?.rawValue ?? "", fields.to?.rawValue ?? "", fields.reason ?? ""]
        let text = parts.map { $0.utf8.contains(0x1F) ? $0.replacingOccurrences(of: "\u{1F}", with: "\u{1F}\u{1F}") : $0 }
            .joined(separator: "\u{1F}")
        return SHA256.hash(data: Data(text.utf8)).hexString
    }
}

/// The content of an audit entry, as hashed: the stored text of each field.
public struct AuditFields: Sendable, Equatable {
    public let reportID: String?
    /// Account id, or `anonymous` / `system`.
    public let actor: String
    /// The stored timestamp text (`Timestamp.format`).
    public let at: String
    public let action: String
    public let from: ReportStatus?
    public let to: ReportStatus?
    public let reason: String?

    public init(reportID: String?, actor: String, at: String, action: String, from: ReportStatus? = nil, to: ReportStatus? = nil,
                reason: String? = nil) {
        self.reportID = reportID
        self.actor = actor
        self.at = at
        self.action = action
        self.from = from
        self.to = to
        self.reason = reason
    }
}

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
