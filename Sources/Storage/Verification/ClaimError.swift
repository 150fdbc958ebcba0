/// Why a claim was refused.
public enum ClaimError: Error, Equatable, Sendable {
    case heldByOther(ReportClaim)
    case notFound
}
