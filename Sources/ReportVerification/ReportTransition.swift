/// A change of status that someone asks for.
public enum ReportTransition: String, Codable, CaseIterable, Hashable, Sendable {
    /// A verifier confirms a pending report.
    case verify
    /// A verifier refuses a pending report, with a reason.
    case reject
    /// A verifier takes a verified report back out of the numbers, with a reason.
    case revoke
    /// A verifier puts a rejected report back in the queue, with a reason.
    case reopen
    /// The reporter takes back their own pending report.
    case withdraw
}
