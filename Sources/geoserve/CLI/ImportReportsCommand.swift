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
        // Opened first: the rows' days are the store's zone's.
        let opened = try await store.opened(bulk: true), db = opened.store, zone = opened.timeZone
        let geoJSON = ["geojson", "json"].contains(url.pathExtension.lowercased())
        // Mapped, not read into memory: a 200 MB file is held once, in the page cache, where a
        // copy for reading and another for its rows took 400 MB. A file that cannot be mapped
        // (empty, a pipe) is read whole, as layer files are (`AreaFile`).
        let mapped = try? MappedFile(url: url)
        guard let bytes = mapped?.data ?? FileManager.default.contents(atPath: file) else { throw CommandFailure("cannot read \(file)") }
        let catalog = LayerCatalog(indexFiles: try store.indexFiles())
        // The file's digest for the audit entry, computed beside the import (0.4 s for 200 MB).
        let digest = Background { withExtendedLifetime(mapped) { SHA256.hash(data: bytes).hexString } }, name = url.lastPathComponent
        var imported = 0, rows: ReportFileImport
        var attempt = 0
        while true {
            attempt += 1
            let reader = mapped.map { ReportFileReader(file: $0, geoJSON: geoJSON, now: Date(), timeZone: zone) }
                ?? ReportFileReader(data: bytes, geoJSON: geoJSON, now: Date(), timeZone: zone)
            try refuse(reader.problems)  // a header or a document that cannot be read
            try await catalog.refresh(from: db)
            // Rows are read, checked and placed while the store stores the ones before.
            rows = ReportFileImport(reader, placement: ReportPlacement(layers: catalog.snapshot(), refusesOutside: false))
            do {
                imported = try await db.importReports(rows, actor: "cli") { count in "file=\(name) rows=\(count) sha256=\(digest.value)" }
                break
            } catch let refused as ReportFileImport.Refused {
                try refuse(refused.problems)
                return
            } catch StorageError.conflict(let what) {
                printError("\(what) is already stored; nothing imported")
                throw ExitCode(1)
            } catch let stale as StalePlacement {
                // Another process published areas while the rows streamed in: nothing was stored,
                // and the file is placed again in what is published now.
                let changed = stale.changes
                guard attempt < 3 else {
                    printError("areas were published during each of \(attempt) attempts (\(changed.joined(separator: ", "))); nothing imported")
                    throw ExitCode(1)
                }
                printError("areas were published while \(name) was imported (\(changed.joined(separator: ", "))); nothing was stored, importing again")
            }
        }
        guard imported > 0 else {
            printError("\(file) holds no reports; nothing imported")
            return
        }
        let tally = rows.tally
        print("imported \(imported) reports (\(tally.verified) verified, \(tally.placed) placed in an area) from \(name)")
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
