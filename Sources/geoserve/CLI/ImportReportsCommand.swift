import GeoCore
import ArgumentParser
import Crypto
import DomainKernel
import Foundation
import GeoserveApp
import Storage
import Support

/// Moves reports in from an earlier system or an export: every row checked, placed in the
/// published layers and counted, in one transaction with one audit entry.
struct ImportReportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-reports",
        abstract: "Import reports from CSV or GeoJSON: checked, placed in the published layers, counted and audited as one import; all or nothing.",
        discussion: """
        CSV has a header naming its columns, of: \(ReportCSV.columns.joined(separator: ", ")) \
        (kind and occurred_on required; lon and lat, or area_layer and area_id). GeoJSON is a \
        FeatureCollection of Point features whose properties carry the same names. An export \
        (geoserve export reports) imports back. Any bad row is reported by its line and nothing \
        is imported.
        """
    )

    @Argument(help: "A .csv, .geojson or .json file.") var file: String
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let url = URL(fileURLWithPath: file)
        guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure("cannot read \(file)") }
        let zone = try store.timeZone()
        let now = Date()
        let geoJSON = ["geojson", "json"].contains(url.pathExtension.lowercased())
        let read = ReportFile(data: data, geoJSON: geoJSON, now: now, timeZone: zone)
        try refuse(read.problems)
        let db = try await store.open()
        let catalog = LayerCatalog(indexFiles: try store.indexFiles())
        try await catalog.refresh(from: db)
        let placement = ReportPlacement(layers: catalog.snapshot(), refusesOutside: false)
        var records: [ReportRecord] = []
        records.reserveCapacity(read.entries.count)
        var problems: [ReportFile.Problem] = []
        let progress = ProgressLine(label: "placed")
        for (n, e) in read.entries.enumerated() {
            do {
                let placed = try placement.place(e.location)
                records.append(ReportRecord(id: e.id ?? TimeOrderedID.make(), kind: e.kind, status: e.status, version: 1, reporterID: nil,
                                            submittedAt: e.submittedAt, updatedAt: e.submittedAt, occurredOn: e.occurredOn, payload: e.payload,
                                            lon: placed.lon, lat: placed.lat, areas: placed.areas, verifiedOn: e.verifiedOn, group: e.group))
            } catch {
                problems.append(.init(place: e.place, message: error.message))
            }
            progress.update(n + 1, read.entries.count)
        }
        try refuse(problems)
        guard !records.isEmpty else {
            printError("\(file) holds no reports; nothing imported")
            return
        }
        let digest = SHA256.hash(data: data).hexString
        do {
            try await db.importReports(records, actor: "cli", detail: "file=\(url.lastPathComponent) rows=\(records.count) sha256=\(digest)")
        } catch StorageError.conflict(let what) {
            printError("\(what) is already stored; nothing imported")
            throw ExitCode(1)
        }
        let placedCount = records.filter { !$0.areas.isEmpty }.count
        print("imported \(records.count) reports (\(records.filter { $0.status == .verified }.count) verified, \(placedCount) placed in an area) from \(url.lastPathComponent)")
    }

    /// Prints the problems and stops with exit status 1 when there are any.
    private func refuse(_ problems: [ReportFile.Problem]) throws {
        guard !problems.isEmpty else { return }
        for p in problems.prefix(100) { printError(p.description) }
        if problems.count > 100 { printError("… and \(problems.count - 100) more") }
        printError("\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(file); nothing imported")
        throw ExitCode(1)
    }
}
