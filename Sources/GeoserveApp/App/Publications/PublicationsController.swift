import DomainKernel
import Foundation
import Hummingbird
import ReportVerification
import Storage

/// `GET /v1/publications`: when public numbers were published and when they next will be.
/// `POST /v1/publications` (admins): publish now, outside the schedule — after a correction, or
/// dated an earlier day to catch up a missed one.
struct PublicationsController {
    let publications: PublicationBook
    let publisher: Publisher
    let schedule: PublicationSchedule
    let watcher: DataVersionWatcher
    /// When the store was marked a drill copy; nil for production. A drill copy makes no
    /// scheduled publication, so it announces none.
    var drillCopy: String?

    struct ScheduleView: Codable {
        /// Times of day, `HH:MM`; empty when only admins publish.
        let times: [String]
        let timeZone: String
        /// The next scheduled publication; nil when none will be made (no times, or a drill copy).
        let next: String?
        /// Why no scheduled publication is made although times are set (a drill copy).
        let paused: String?
    }

    struct Listing: ResponseEncodable {
        let publications: [PublicationView]
        let schedule: ScheduleView
    }

    struct PublishRequest: StrictRequestBody {
        static let members: Set<String> = ["day"]
        let day: Day?
    }

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.get("publications") { _, _ in list() }
        v1.group("publications").add(middleware: RequirePermission(.publishStatistics))
            .post { request, context in try await publish(request, context) }
    }

    func list() -> Listing {
        let zone = publisher.timeZone
        let paused = drillCopy.map { _ in "this store is a drill copy: no scheduled publications until `geoserve drill promote`" }
        return Listing(publications: publications.all.map(PublicationView.init),
                       schedule: ScheduleView(times: schedule.text, timeZone: StoreTimeZone.name(zone),
                                              next: paused != nil ? nil : schedule.nextSlot(after: Date(), in: zone).map(Timestamp.format),
                                              paused: paused))
    }

    func publish(_ request: Request, _ context: AppRequestContext) async throws -> EditedResponse<PublicationView> {
        // The body is optional: none (no length, or 0, and not chunked), `{}` or `{"day": null}`
        // publish as of today.
        let length = request.headers[.contentLength]
        let empty = length == "0" || (length == nil && request.headers[.transferEncoding] == nil)
        let day = empty ? nil : try await request.decodeStrict(as: PublishRequest.self, context: context).day
        guard let made = try await publisher.publish(day: day) else {
            throw APIError.conflict("another publication was made meanwhile")
        }
        await watcher.noteCommit()
        return EditedResponse(status: .created, response: PublicationView(made))
    }
}
