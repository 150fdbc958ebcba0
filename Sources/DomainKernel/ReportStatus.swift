/// Where a report stands in verification.
public enum ReportStatus: String, Codable, CaseIterable, Hashable, Sendable {
    /// Submitted, waiting for a verifier.
    case pending
    /// Confirmed by a verifier; counts in public numbers.
    case verified
    /// Refused by a verifier, with a reason.
    case rejected
    /// Was verified, then withdrawn from the numbers by a verifier, with a reason.
    case revoked
    /// Taken back by its reporter while still pending.
    case withdrawn
}
