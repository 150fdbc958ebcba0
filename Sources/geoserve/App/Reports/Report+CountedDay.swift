import DomainKernel
import ReportVerification

extension Report {
    /// The day the report is counted on. Validation writes every date a report carries, so a
    /// validated report always has one; the error is for the impossible rest, not a crash.
    func countedDay() throws(PlacementRefused) -> Day {
        guard let day = occurredOn else { throw .unreadableDate(field: kind == .covid ? "testDate" : "occurredAt") }
        return day
    }
}
