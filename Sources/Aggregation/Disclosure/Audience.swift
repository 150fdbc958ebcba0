import DomainKernel

/// Who a release is for; each audience has its own threshold k.
public enum Audience: String, CaseIterable, Sendable, Codable {
    /// Anyone: the campus dashboard, GeoJSON, tiles.
    case `public`
    /// Signed-in researchers: statistics and exports, never row-level data.
    case researcher
    /// Verifiers and admins, who see the reports themselves anyway: no suppression, pending counts.
    case verifier
}
