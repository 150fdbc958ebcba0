/// What an account may do. Each account has exactly one role; accounts are created by admins
/// (the first one by the command line).
public enum Role: String, Codable, CaseIterable, Hashable, Sendable {
    /// Submits reports and follows their status; edits or withdraws its own while pending.
    case reporter
    /// Works the verification queue: verifies, rejects, revokes, reopens, edits, reads history
    /// and attachments.
    case verifier
    /// Exports disclosure-controlled statistics; never reads a report.
    case researcher
    /// Reads exactly the reports an admin granted it (e.g. a district attorney); never edits.
    case viewer
    /// Manages accounts, layers and viewer grants, and may do everything a verifier does.
    case admin
}

/// A capability that routes check; the table below is the only place that maps roles to them.
public enum Permission: String, CaseIterable, Hashable, Sendable {
    case submitReport
    case readOwnReports
    case editOwnPendingReport
    case workQueue
    case transitionReports
    case editAnyReport
    case readReportHistory
    case readAttachments
    case readPendingCounts
    case exportStatistics
    case readGrantedReports
    case manageAccounts
    case manageLayers
    case manageGrants
}

extension Role {
    /// The permissions of the role.
    public var permissions: Set<Permission> {
        switch self {
        case .reporter:
            return [.submitReport, .readOwnReports, .editOwnPendingReport]
        case .verifier:
            return [.submitReport, .workQueue, .transitionReports, .editAnyReport, .readReportHistory, .readAttachments, .readPendingCounts]
        case .researcher:
            return [.exportStatistics]
        case .viewer:
            return [.readGrantedReports]
        case .admin:
            return Role.verifier.permissions.union([.manageAccounts, .manageLayers, .manageGrants, .exportStatistics])
        }
    }

    /// Whether the role has a permission.
    public func allows(_ permission: Permission) -> Bool {
        permissions.contains(permission)
    }
}
