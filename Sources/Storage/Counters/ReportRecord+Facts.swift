import Aggregation
import DomainKernel
import Foundation
import ReportVerification

extension ReportRecord {
    /// What the counters know of this report: its kind, status, days in the campus zone, group
    /// and areas.
    public func counterFacts(zone: TimeZone) -> ReportFacts {
        ReportFacts(kind: kind, status: status, occurredOn: occurredOn, submittedOn: Day.containing(submittedAt, in: zone),
                    verifiedOn: verifiedOn, group: group, areas: areas.map(\.area))
    }
}
