import DomainKernel
import Support

extension Report {
    /// The report's stored fields that an audience may see, as JSON values, for any serializer
    /// that shows a report to someone (verifier views, granted viewers, the reporter's own view).
    ///
    /// It goes through the report's stored encoding and keeps only keys the kind's visibility
    /// table lets through, so a field added to a report later stays hidden until someone declares it.
    /// - Throws: only if the stored encoding does not read back, which would be a programming error.
    public func fields(visibleTo audience: ReportAudience) throws -> [String: JSONValue] {
        guard case .object(let stored) = try JSONParser.parse(storedJSON), case .object(let all)? = stored[kind.rawValue] else { return [:] }
        let visibility = kind.fieldVisibility
        return all.filter { visibility[$0.key]?.isVisible(to: audience) == true }
    }
}
