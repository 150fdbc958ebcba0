import DomainKernel

/// Why a transition cannot be applied.
public enum TransitionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The transition does not start from the report's current status.
    case notAllowed(ReportTransition, from: ReportStatus)
    /// The transition needs a reason and none (or only blanks) was given.
    case reasonRequired(ReportTransition)

    /// For error messages.
    public var description: String {
        switch self {
        case .notAllowed(let t, let s): return "cannot \(t.rawValue) a report that is \(s.rawValue)"
        case .reasonRequired(let t): return "\(t.rawValue) needs a reason"
        }
    }
}

extension ReportTransition {
    /// The status a transition starts from.
    public var source: ReportStatus {
        switch self {
        case .verify, .reject, .withdraw: return .pending
        case .revoke: return .verified
        case .reopen: return .rejected
        }
    }

    /// The status a transition leads to.
    public var target: ReportStatus {
        switch self {
        case .verify: return .verified
        case .reject: return .rejected
        case .revoke: return .revoked
        case .reopen: return .pending
        case .withdraw: return .withdrawn
        }
    }

    /// Whether the transition must carry a reason (the source documents require one for every
    /// decision against a report and for undoing a decision).
    public var requiresReason: Bool {
        switch self {
        case .reject, .revoke, .reopen: return true
        case .verify, .withdraw: return false
        }
    }
}

extension ReportStatus {
    /// The status after applying a transition.
    /// - Throws: `TransitionError` when the transition does not start here or lacks a reason.
    public func applying(_ transition: ReportTransition, reason: String?) throws(TransitionError) -> ReportStatus {
        guard transition.source == self else { throw .notAllowed(transition, from: self) }
        if transition.requiresReason, (reason ?? "").allSatisfy(\.isWhitespace) {
            throw .reasonRequired(transition)
        }
        return transition.target
    }

    /// The transitions that may start from this status.
    public var allowedTransitions: [ReportTransition] {
        ReportTransition.allCases.filter { $0.source == self }
    }
}
