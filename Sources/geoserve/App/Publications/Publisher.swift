import Aggregation
import DomainKernel
import Foundation
import Storage

/// Makes publications: plans with the disclosure policy inside the store's transaction and
/// dates the publication in the service's time zone. Shared by the schedule, the admin endpoint
/// and `geoserve publish`.
struct Publisher: Sendable {
    let store: any PublicationStore
    let planner: PublicationPlanner
    let timeZone: TimeZone
    /// The schedule's publication days: a first publication replays history in its intervals.
    let days: PublicationDays

    init(store: any PublicationStore, policy: DisclosurePolicy, timeZone: TimeZone, days: PublicationDays = .daily) {
        self.store = store
        self.planner = PublicationPlanner(policy: policy)
        self.timeZone = timeZone
        self.days = days
    }

    /// Another publication was made at or after the slot this one was for.
    struct AlreadyPublished: Error {}

    /// Publishes everything changed since the last publication, dated `day` (default today in
    /// the service's zone; never after today). With `slot`, nothing is made when a publication
    /// at or after it exists — another process took the slot — and nil is returned.
    func publish(day: Day? = nil, now: Date = Date(), slot: Date? = nil) async throws -> PublicationRecord? {
        let today = Day.containing(now, in: timeZone)
        let day = day ?? today
        if day > today {
            throw PublicationRefused.afterToday(today: today, zone: timeZone.identifier)
        }
        let (planner, days) = (planner, days)
        do {
            return try await store.publish(day: day, at: now) { input in
                if let slot, let latest = input.latest, latest.publishedAt >= slot { throw AlreadyPublished() }
                return planner.plan(ledger: input.ledger, verified: input.verified, day: day, geography: input.geography,
                                    existingAreas: input.existingAreas, days: days)
            }
        } catch is AlreadyPublished {
            return nil
        } catch PublicationError.dayBeforeLatest(let latest) {
            throw PublicationRefused.beforeLatest(latest: latest)
        }
    }
}
