import DomainKernel

/// Read-only searches for public outputs. Only verified reports are ever returned.
public protocol PublicReportSearch: Sendable {
    /// Verified reports of a kind placed in an area, newest occurrence first.
    func verifiedReports(kind: ReportKind, layer: String, areaID: String, limit: Int) async throws -> [ReportRecord]

    /// Verified reports of a kind whose stored location lies within a box, newest occurrence
    /// first; the caller refines the box to a circle.
    func verifiedReports(kind: ReportKind, within box: (west: Double, south: Double, east: Double, north: Double), limit: Int) async throws -> [ReportRecord]
}
