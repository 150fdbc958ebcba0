import DomainKernel
import Foundation
import ReportVerification
import Storage

/// Puts `DemoReports` into a store that holds no reports: day by day, each day's verified
/// reports imported (placed, counted and audited like `geoserve import-reports`) and then that
/// day published, so the publications have a history to show, not one day holding everything.
/// A few pending reports are left for the verifiers' queue.
struct DemoSeeder {
    let store: any GeoserveStore
    let catalog: LayerCatalog
    let publisher: Publisher
    let layer: String
    let demo: DemoReports

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    struct Outcome {
        let reports: Int
        let publications: Int
    }

    func seed(now: Date = Date()) async throws -> Outcome {
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
                    let placed = try placement.place(.area(layer: layer, areaID: area))
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
            let placed = try placement.place(.area(layer: layer, areaID: area))
            pending.append(ReportRecord(id: TimeOrderedID.make(), kind: .covid, status: .pending, version: 1, reporterID: nil,
                                        submittedAt: now, updatedAt: now, occurredOn: today, payload: Data(#"{"demo":true}"#.utf8),
                                        lon: placed.lon, lat: placed.lat, areas: placed.areas))
        }
        try await store.importReports(pending, actor: "demo", detail: "synthetic demo reports awaiting verification: \(pending.count)")
        return Outcome(reports: reports + pending.count, publications: publications)
    }
}
