import DomainKernel
import Foundation

extension ReportDraft {
    /// Validates the draft into a typed report, or names every problem.
    /// - Parameters:
    ///   - now: the present, so that "not in the future" is deterministic.
    ///   - timeZone: the campus's zone: "today" and an incident's day are its days.
    /// - Throws: `ReportValidationError` listing every problem, in field order.
    public func validated(now: Date, timeZone: TimeZone) throws(ReportValidationError) -> Report {
        var v = DraftValidator(now: now, timeZone: timeZone)
        let kind: ReportKind? = v.choice("kind", self.kind, required: true)
        let place = v.place(location, area)
        let report: Report?
        switch kind {
        case .covid?: report = covid(place: place, &v).map(Report.covid)
        case .misconduct?: report = misconduct(place: place, &v).map(Report.misconduct)
        case nil: report = nil
        }
        guard v.problems.isEmpty, let report else { throw ReportValidationError(problems: v.problems) }
        return report
    }
}
