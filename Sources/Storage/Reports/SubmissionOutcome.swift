/// What a submission did.
public enum SubmissionOutcome: Hashable, Sendable {
    /// Stored now.
    case created(ReportRecord)
    /// A retry: the report stored earlier under the same idempotency key.
    case replayed(ReportRecord)

    public var record: ReportRecord {
        switch self {
        case .created(let r), .replayed(let r): return r
        }
    }
}
