import Foundation
import GeoCore

extension Report {
    /// The report's stored fields that an audience may see, as JSON values, for any serializer
    /// that shows a report to someone (verifier views, granted viewers, the reporter's own view).
    ///
    /// It goes through the report's own encoding and keeps only keys the kind's visibility table
    /// lets through, so a field added to a report later stays hidden until someone declares it.
    /// - Throws: only if the report cannot be encoded, which would be a programming error.
    public func fields(visibleTo audience: ReportAudience) throws -> [String: JSONValue] {
        let data: Data
        switch self {
        case .covid(let r): data = try JSONEncoder().encode(r)
        case .misconduct(let r): data = try JSONEncoder().encode(r)
        }
        let all = try JSONDecoder().decode([String: JSONValue].self, from: data)
        let visibility = kind.fieldVisibility
        return all.filter { visibility[$0.key]?.isVisible(to: audience) == true }
    }
}
