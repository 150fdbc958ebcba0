/// The two kinds of report the service takes.
public enum ReportKind: String, Codable, CaseIterable, Hashable, Sendable {
    /// A COVID self-report (COVID Lens): a positive diagnosis, verified by trusted campus admins.
    case covid
    /// A report of an encounter with police (TripleR); anonymous by default.
    case misconduct
}

extension ReportKind {
    /// Whether photos and videos may be attached. Misconduct reports carry evidence (TripleR
    /// records video of the encounter); the COVID self-report form has no attachments, so
    /// accepting files there would only be a way to fill the disk.
    public var takesAttachments: Bool { self == .misconduct }
}
