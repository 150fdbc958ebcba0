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
    /// Submit a report of either kind.
    case submitReport
    /// Read the status of one's own reports.
    case readOwnReports
    /// Edit one's own report while it is still pending.
    case editOwnPendingReport
    /// Read and claim reports in the verification queue.
    case workQueue
    /// Verify, reject, revoke or reopen reports.
    case transitionReports
    /// Edit any report, whatever its status.
    case editAnyReport
    /// Read a report's revisions and audit trail.
    case readReportHistory
    /// Download a report's videos and photos.
    case readAttachments
    /// See counts of reports still pending, beside the public (verified) ones.
    case readPendingCounts
    /// Export disclosure-controlled statistics.
    case exportStatistics
    /// Read the reports an admin granted to this account.
    case readGrantedReports
    /// Create, disable and change accounts.
    case manageAccounts
    /// Import and replace area layers.
    case manageLayers
    /// Grant viewers access to reports, and withdraw grants.
    case manageGrants
    /// Make a publication outside the schedule.
    case publishStatistics
    /// Post, edit, expire and delete alerts and resources.
    case manageNotices
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
            return Role.verifier.permissions.union([.manageAccounts, .manageLayers, .manageGrants, .exportStatistics, .publishStatistics, .manageNotices])
        }
    }

    /// Whether the role has a permission.
    public func allows(_ permission: Permission) -> Bool {
        permissions.contains(permission)
    }
}
