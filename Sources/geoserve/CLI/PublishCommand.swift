import ArgumentParser
import DomainKernel
import Foundation
import GeoserveApp
import Storage

struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish the public numbers now, outside the schedule; or list the publications.",
        discussion: """
            Public numbers, tiles and exports change only at publications. A running service \
            publishes at --publish-at; this makes one at once (after a correction, or dated an \
            earlier day with --day to catch up a missed one). Serving processes pick it up within \
            their data-version interval.
            """
    )

    @Option(help: "The day the publication is dated, YYYY-MM-DD (default today in the service's time zone; not before the latest publication's).")
    var day: String?

    @Flag(help: "List the publications instead of making one.")
    var list = false

    @OptionGroup var store: StoreOptions
    @OptionGroup(title: "Publication") var publication: PublicationOptions

    func run() async throws {
        let opened = try await store.opened(), db = opened.store
        if list {
            for p in try await db.publications() {
                print("\(p.id)\t\(p.day.iso)\t\(Timestamp.format(p.publishedAt))\t\(p.blocks) blocks" + (p.linesMoved > 0 ? "\t\(p.linesMoved) lines took new areas" : ""))
            }
            return
        }
        let parsedDay = try day.map { text in
            guard let d = Day(iso: text) else { throw ValidationError("--day must be a date YYYY-MM-DD") }
            return d
        }
        let publisher = Publisher(store: db, policy: try publication.policy(), timeZone: opened.timeZone, days: try publication.schedule().days)
        guard let made = try await publisher.publish(day: parsedDay) else { return }
        printError("publication \(made.id) dated \(made.day.iso): \(made.blocks) blocks released")
    }
}
