import DomainKernel

/// Read-only searches for public outputs. Only verified reports that a publication counts are
/// ever returned: verified before its day, or on its day before it was made (a report changed
/// since waits for the next one). The filter comes before the limit, so a page never changes
/// between publications (a verification that is not yet published must not push one out).
public protocol PublicReportSearch: Sendable {
    /// Published verified reports of a kind placed in an area, newest occurrence first; none
    /// before the first publication.
    func verifiedReports(kind: ReportKind, layer: String, areaID: String, publishedBy: PublicationRecord?, limit: Int) async throws -> [ReportRecord]

    /// Published verified reports of a kind whose stored location lies within a box, newest
    /// occurrence first; the caller refines the box to a circle.
    func verifiedReports(kind: ReportKind, within box: (west: Double, south: Double, east: Double, north: Double), publishedBy: PublicationRecord?,
                         limit: Int) async throws -> [ReportRecord]
}
