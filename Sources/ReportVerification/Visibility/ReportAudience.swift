/// Who is about to read a report, as far as field visibility is concerned.
///
/// Roles say what an account may *do*; the audience says what it may *see* of one particular
/// report, which also depends on whether the account wrote it or was granted it.
public enum ReportAudience: String, CaseIterable, Hashable, Sendable {
    /// Anyone: public search, maps, and every role without a closer tie to the report.
    case `public`
    /// A viewer (e.g. a district attorney) an admin granted this report to.
    case grantedViewer
    /// The account that submitted the report (never exists for an anonymous report).
    case reporter
    /// A verifier or an admin working the report.
    case verifier

    /// The audience an account belongs to for one report.
    /// - Parameters:
    ///   - role: the reader's role; nil for an unauthenticated reader.
    ///   - isReporter: whether the reader submitted this report.
    ///   - isGranted: whether an admin granted this report to the reader.
    public init(role: Role?, isReporter: Bool, isGranted: Bool) {
        switch role {
        case .verifier?, .admin?: self = .verifier
        // A grant only means something to a viewer; the other roles never hold one.
        case .viewer? where isGranted: self = .grantedViewer
        // Reporter identity is checked, not the role: verifiers and admins may submit reports too
        // but are already handled above, and a viewer never submits.
        case .reporter? where isReporter: self = .reporter
        // Researchers, viewers without a grant, other reporters and anonymous readers see only
        // what is public; researchers work from aggregates, never rows.
        default: self = .public
        }
    }
}
