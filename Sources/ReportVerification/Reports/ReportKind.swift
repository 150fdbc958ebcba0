/// The two kinds of report the service takes.
public enum ReportKind: String, Codable, CaseIterable, Hashable, Sendable {
    /// A COVID self-report: a positive diagnosis, verified by campus admins.
    case covid
    /// A report of an encounter with police; anonymous by default.
    case misconduct
}

/// Who a COVID self-reporter is on campus.
public enum Affiliation: String, Codable, CaseIterable, Hashable, Sendable {
    case student, faculty, staff
}
