import Crypto
import Foundation
import ReportVerification

/// The hash chain of the audit trail: each entry's hash is SHA-256 over the previous entry's
/// hash and the entry's fields, so changing or removing any entry changes every later hash.
enum AuditChain {
    /// The "previous hash" of the first entry.
    static let genesis = String(repeating: "0", count: 64)

    static func hash(previous: String, sequence: Int, reportID: String?, actor: String, at: String, action: String,
                     from: ReportStatus?, to: ReportStatus?, reason: String?) -> String {
        // Fields are separated by the ASCII unit separator, which no field may contain unescaped.
        let fields = [previous, String(sequence), reportID ?? "", actor, at, action, from?.rawValue ?? "", to?.rawValue ?? "", reason ?? ""]
        let text = fields.map { $0.utf8.contains(0x1F) ? $0.replacingOccurrences(of: "\u{1F}", with: "\u{1F}\u{1F}") : $0 }.joined(separator: "\u{1F}")
        return SHA256.hash(data: Data(text.utf8)).hexString
    }
}
