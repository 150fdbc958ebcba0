/// The two kinds of report the service takes.
public enum ReportKind: String, Codable, CaseIterable, Hashable, Sendable {
    /// A COVID self-report (COVID Lens): a positive diagnosis, verified by trusted campus admins.
    case covid
    /// A report of an encounter with police (TripleR); anonymous by default.
    case misconduct
}
