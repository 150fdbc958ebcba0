import DomainKernel

/// Who may see a report field. Each report kind declares one per field in
/// `ReportKind.fieldVisibility`; every serializer asks that declaration, so the public/internal
/// split is written down once.
public enum FieldVisibility: String, CaseIterable, Hashable, Sendable {
    /// Anyone, once the report is verified: public misconduct search.
    case `public`
    /// The people who handle the report: verifiers and admins, a viewer it was granted to, and
    /// its own reporter. Never the public, never researchers.
    case verifierOnly
    /// Personal contact data — the reporter's phone, third parties' contacts — and evidence
    /// files: the reporter who gave it and the verifiers who must follow up. Not even a granted
    /// viewer: a grant shares the report, not other people's contact details; the evidence files
    /// a grant does share are listed and read through the attachments routes.
    case reporterOnly

    /// Whether an audience may see fields of this visibility.
    public func isVisible(to audience: ReportAudience) -> Bool {
        switch (self, audience) {
        case (.public, _): return true
        case (.verifierOnly, .public): return false
        case (.verifierOnly, _): return true
        case (.reporterOnly, .reporter), (.reporterOnly, .verifier): return true
        case (.reporterOnly, _): return false
        }
    }
}
