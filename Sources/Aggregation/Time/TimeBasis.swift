import DomainKernel

/// Which date of a report places it in time: when the event happened, when it was reported,
/// or when a verifier accepted it. Each basis is counted separately so every view is exact.
public enum TimeBasis: String, CaseIterable, Sendable, Codable {
    case occurred, submitted, verified
}
