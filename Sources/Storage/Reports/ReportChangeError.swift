import DomainKernel
import ReportVerification

/// Why a change of a report was refused.
public enum ReportChangeError: Error, Equatable, Sendable {
    /// The transition does not apply to the current status, or a reason is missing.
    case transition(TransitionError, current: ReportStatus)
    /// The report changed since the caller read it.
    case staleVersion(current: Int, status: ReportStatus)
    /// No such report.
    case notFound
    /// A verifier's own report: nobody reviews what they submitted themselves. (An anonymous
    /// report names no account, so its reporter cannot be recognised.)
    case ownReport
    /// The report's content may not be changed in its current status by this editor.
    case notEditable(current: ReportStatus)
}
