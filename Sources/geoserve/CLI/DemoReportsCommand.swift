import ArgumentParser
import Foundation
import GeoserveApp

/// `geoserve demo-reports`: synthetic verified reports and a history of publications for the demo
/// campus, so its dashboard has something to show. Only into a store without reports.
struct DemoReportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-reports",
        abstract: "Fill a store that holds no reports with synthetic, clearly marked demo reports and publish them day by day.",
        discussion: "For trying geoserve out: never on a store with real reports (it refuses). serve --demo-reports does the same at start."
    )

    @Option(help: "Days of history (1-90).") var days = 28
    @Option(help: "Area layer the reports are placed in.") var layer = "halls"
    @Option(help: "Seed of the generator: the same seed gives the same reports.") var seed: UInt64 = 1
    @OptionGroup var store: StoreOptions
    @OptionGroup(title: "Publication") var publication: PublicationOptions

    func run() async throws {
        guard (1...90).contains(days) else { throw ValidationError("days must be 1 to 90") }
        let opened = try await store.opened(), db = opened.store
        let catalog = LayerCatalog(indexFiles: try store.indexFiles())
        try await catalog.refresh(from: db)
        let publisher = Publisher(store: db, policy: try publication.policy(), timeZone: opened.timeZone, days: try publication.schedule().days)
        do {
            let outcome = try await DemoSeeder(store: db, catalog: catalog, publisher: publisher, layer: layer,
                                               demo: DemoReports(days: days, seed: seed)).seed()
            print("stored \(outcome.reports) demo reports in \(layer) and made \(outcome.publications) publications")
        } catch let refused as DemoSeeder.Refused {
            printError(refused.description)
            throw ExitCode(1)
        }
    }
}
