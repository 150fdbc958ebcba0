import DomainKernel

/// What the reporter says about their own diagnosis.
///
/// COVID Lens's data dictionary has a `reportStatus` column where "the user chooses either
/// 'confirmed' or 'unconfirmed'". It is the reporter's claim (a lab result, or symptoms only),
/// not the verification state, so it is named apart from `ReportStatus` to keep the two from
/// being confused.
public enum Diagnosis: String, Codable, CaseIterable, Hashable, Sendable {
    /// The reporter has a positive test result.
    case confirmed
    /// The reporter believes they are infected but has no result yet.
    case unconfirmed
}
