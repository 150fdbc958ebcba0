import DomainKernel

/// Who may change a report's content, decided before the store's transaction and checked inside
/// it against the status the report has then (it may change between the two).
public enum EditPermission: Sendable, Hashable {
    /// An editor with the right to change any report in any status.
    case anyStatus
    /// The reporter, only while the report is pending.
    case whilePending

    /// Refuses an edit of a report in `status`.
    func check(_ status: ReportStatus) throws(ReportChangeError) {
        if self == .whilePending, status != .pending { throw .notEditable(current: status) }
    }
}
