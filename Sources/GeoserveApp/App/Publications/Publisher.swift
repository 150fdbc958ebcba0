import Aggregation
import DomainKernel
import Foundation
import Storage

/// Makes publications: the store plans them with the disclosure policy in its transaction, and
/// dates the publication in the service's time zone. Shared by the schedule, the admin endpoint
/// and `geoserve publish`.
package struct Publisher: Sendable {
    let store: any PublicationStore
    let planner: PublicationPlanner
    let timeZone: TimeZone
    /// The schedule's publication days: a first publication replays history in its intervals.
    let days: PublicationDays

    package init(store: any PublicationStore, policy: DisclosurePolicy, timeZone: TimeZone, days: PublicationDays = .daily) {
        self.store = store
        self.planner = PublicationPlanner(policy: policy)
        self.timeZone = timeZone
        self.days = days
    }

    /// Publishes everything changed since the last publication, dated `day` (default today in
    /// the service's zone; never after today). With `slot`, nothing is made when a publication
    /// at or after it exists — another process took the slot — and nil is returned.
    package func publish(day: Day? = nil, now: Date = Date(), slot: Date? = nil) async throws -> PublicationRecord? {
        let today = Day.containing(now, in: timeZone)
        let day = day ?? today
        if day > today {
            throw PublicationRefused.afterToday(today: today, zone: timeZone.identifier)
        }
        do {
            return try await store.publish(PublicationRequest(day: day, at: now, planning: ScheduledPlanning(planner: planner, days: days), slot: slot))
        } catch PublicationError.dayBeforeLatest(let latest) {
            throw PublicationRefused.beforeLatest(latest: latest)
        }
    }
}
