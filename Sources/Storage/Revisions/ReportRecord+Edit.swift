import DomainKernel
import Foundation
import ReportVerification

extension ReportRecord {
    /// The breakdown group the edited content gives (a COVID report's affiliation), or the
    /// current one when the payload is not in the report shape.
    public func group(after edit: ReportEdit) -> BreakdownGroup? {
        guard let report = try? JSONDecoder().decode(Report.self, from: edit.payload) else { return group }
        return report.breakdownGroup
    }

    /// The record after an edit written at `at`: new content, next version.
    public func applying(_ edit: ReportEdit, group: BreakdownGroup?, at: Date) -> ReportRecord {
        var r = self
        r.occurredOn = edit.occurredOn
        r.lon = edit.lon
        r.lat = edit.lat
        r.payload = edit.payload
        r.areas = edit.areas
        r.group = group
        r.version += 1
        r.updatedAt = Timestamp.rounded(at)
        return r
    }
}
