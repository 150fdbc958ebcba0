import Aggregation
import Foundation
import ReportVerification

extension ReportRecord {
    /// What the counters know of this report: its kind, status, days in the campus zone, group
    /// and areas. Nil for a report whose occurrence day cannot be read (it counts nowhere).
    public func counterFacts(zone: TimeZone) -> ReportFacts? {
        guard let occurred = Day(iso: occurredOn) else { return nil }
        return ReportFacts(kind: kind, status: status.rawValue, occurredOn: occurred,
                           submittedOn: Day.containing(submittedAt, in: zone), verifiedOn: verifiedOn.flatMap(Day.init(iso:)),
                           group: group, areas: areas.map { AreaRef(layer: $0.layer, areaID: $0.areaID) })
    }
}
