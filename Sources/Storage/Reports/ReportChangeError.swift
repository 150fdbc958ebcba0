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
}
