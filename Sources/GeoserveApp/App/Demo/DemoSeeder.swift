import DomainKernel
import Foundation
import ReportVerification
import Storage

/// Puts `DemoReports` into a store that holds no reports: day by day, each day's verified
/// reports imported (placed, counted and audited like `geoserve import-reports`) and then that
/// day published, so the publications have a history to show, not one day holding everything.
/// A few pending reports are left for the verifiers' queue.
package struct DemoSeeder {
    let store: any GeoserveStore
    let catalog: LayerCatalog
    let publisher: Publisher
    let layer: String
    let demo: DemoReports

    package init(store: any GeoserveStore, catalog: LayerCatalog, publisher: Publisher, layer: String, demo: DemoReports) {
        self.store = store
        self.catalog = catalog
        self.publisher = publisher
        self.layer = layer
        self.demo = demo
    }

    package struct Refused: Error, CustomStringConvertible {
        package let description: String
    }

    package struct Outcome {
        package let reports: Int
        package let publications: Int
    }

    package func seed(now: Date = Date()) async throws -> Outcome {
        let any = try await store.queue(QueueFilter(statuses: ReportStatus.allCases), limit: 1, cursor: nil)
        guard any.reports.isEmpty else {
            throw Refused(description: "the store already holds reports: demo reports go only into a store without any")
        }
        guard let published = catalog.snapshot()[layer], published.info.kind == .areas else {
            throw Refused(description: "no area layer \(layer) is published to place demo reports in")
        }
        let areas = published.encoded.ids
        let placement = ReportPlacement(layers: catalog.snapshot(), refusesOutside: false)
        let zone = publisher.timeZone
        let today = Day.containing(now, in: zone)
        let latest = try await store.publications(after: 0).last?.day
        var reports = 0, publications = 0
        for age in stride(from: demo.days, through: 1, by: -1) {
            let day = today.adding(days: -age)
            let batch = demo.verified(on: day, today: today, areas: areas)
            if !batch.isEmpty {
                var records: [ReportRecord] = []
                for (area, occurred) in batch {
                    let placed = try placement.place(.area(AreaRef(layer: layer, areaID: area)))
                    // Noon UTC of the day it occurred: that day in every zone within ±11 hours.
                    let at = Date(timeIntervalSince1970: Double(occurred.ordinal) * 86_400 + 43_200)
                    records.append(ReportRecord(id: TimeOrderedID.make(), kind: .covid, status: .verified, version: 1, reporterID: nil,
                                                submittedAt: at, updatedAt: at, occurredOn: occurred, payload: Data(#"{"demo":true}"#.utf8),
                                                lon: placed.lon, lat: placed.lat, areas: placed.areas, verifiedOn: day))
                }
                try await store.importReports(records, actor: "demo", detail: "synthetic demo reports verified on \(day.iso): \(records.count)")
                reports += records.count
            }
            // A store published before (a first start) cannot take older publications: its next
            // publication carries this history.
            if latest.map({ day > $0 }) ?? true, try await publisher.publish(day: day, now: now) != nil { publications += 1 }
        }
        var pending: [ReportRecord] = []
        for area in areas.prefix(5) {
            let placed = try placement.place(.area(AreaRef(layer: layer, areaID: area)))
            pending.append(ReportRecord(id: TimeOrderedID.make(), kind: .covid, status: .pending, version: 1, reporterID: nil,
                                        submittedAt: now, updatedAt: now, occurredOn: today, payload: Data(#"{"demo":true}"#.utf8),
                                        lon: placed.lon, lat: placed.lat, areas: placed.areas))
        }
        try await store.importReports(pending, actor: "demo", detail: "synthetic demo reports awaiting verification: \(pending.count)")
        try await seedNotices(now: now)
        return Outcome(reports: reports + pending.count, publications: publications)
    }

    /// An alert that says the numbers are synthetic, and resources to show the list, only where
    /// an admin has posted none.
    private func seedNotices(now: Date) async throws {
        if try await store.alerts().isEmpty {
            _ = try await store.createAlert(AlertContent(title: "Demo data", message: "These numbers are synthetic reports made by geoserve's demo, not real cases.",
                                                         severity: .info, startsAt: now, endsAt: nil), actor: "demo", at: now)
        }
        guard try await store.resources().isEmpty else { return }
        for (title, category, link) in [("COVID-19 guidance (CDC)", "Health", "https://www.cdc.gov/covid/"),
                                         ("COVID-19 advice for the public (WHO)", "Health", "https://www.who.int/emergencies/diseases/novel-coronavirus-2019/advice-for-public"),
                                         ("Find a COVID-19 test (HHS)", "Testing", "https://www.hhs.gov/coronavirus/covid-19-testing/")] {
            _ = try await store.createResource(ResourceContent(title: title, category: category, link: link), actor: "demo", at: now)
        }
    }
}
