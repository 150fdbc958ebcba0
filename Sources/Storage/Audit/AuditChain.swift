import Crypto
import DomainKernel
import Foundation
import ReportVerification
import Support

/// The hash chain of the audit trail: each entry's hash covers the previous entry's hash and the
/// entry's fields, so changing or removing any entry changes every later hash.
///
/// Keyed entries (`k1:` and an HMAC-SHA256 under the installation's audit key over every field,
/// each length-prefixed) cannot be recomputed without the key. Entries from before the key
/// existed keep their original form, SHA-256 over the fields joined by a separator.
///
/// Backend-neutral: backends store the entries; the linking and the check are here.
public enum AuditChain {
    /// The "previous hash" of the first entry.
    public static let genesis = String(repeating: "0", count: 64)
    /// Marks a keyed entry's hash.
    public static let keyedPrefix = "k1:"

    /// The hash of an entry with the given fields that follows `previous`: keyed when a key is given.
    public static func hash(previous: String, sequence: Int, _ fields: AuditFields, key: AuditKey?) -> String {
        guard let key else { return unkeyed(previous: previous, sequence: sequence, fields) }
        return keyedPrefix + key.mac([previous, String(sequence), fields.reportID, fields.actor, fields.at, fields.action,
                                      fields.from?.rawValue, fields.to?.rawValue, fields.reason])
    }

    /// The original form, for entries written before the installation had a key.
    static func unkeyed(previous: String, sequence: Int, _ fields: AuditFields) -> String {
        // Fields are separated by the ASCII unit separator, which no field may contain unescaped.
        let parts = [previous, String(sequence), fields.reportID ?? "", fields.actor, fields.at, fields.action,
                     fields.from?.rawValue ?? "", fields.to?.rawValue ?? "", fields.reason ?? ""]
        let text = parts.map { $0.utf8.contains(0x1F) ? $0.replacingOccurrences(of: "\u{1F}", with: "\u{1F}\u{1F}") : $0 }
            .joined(separator: "\u{1F}")
        return SHA256.hash(data: Data(text.utf8)).hexString
    }
}
