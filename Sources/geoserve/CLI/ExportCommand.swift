import Aggregation
import ArgumentParser
import DomainKernel
import Foundation
import GeoserveApp
import Storage

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export disclosure-controlled statistics for researchers, or the raw report rows for an admin.",
        subcommands: [ExportAreaStatsCommand.self, ExportReportsCommand.self]
    )
}

struct ExportAreaStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "area-stats",
        abstract: "Published reports per area and bucket, from the newest publication; recorded in the audit trail.",
        discussion: "Writes CSV (RFC 4180, header row) to --out or standard output; with --out, provenance goes to <out>.provenance.json."
    )

    @Option(help: "Area layer.") var layer: String
    @Option(help: "First day, YYYY-MM-DD.") var from: String
    @Option(help: "Last day (inclusive), YYYY-MM-DD.") var to: String
    @Option(help: "day, week (ISO, from Monday) or month.") var bucket: String = "day"
    @Option(help: "covid or misconduct (default covid).") var kind: String?
    @Option(help: "Output CSV file (default standard output).") var out: String?
    @OptionGroup var store: StoreOptions
    @OptionGroup(title: "Publication") var publication: PublicationOptions

    func run() async throws {
        guard let from = Day(iso: from) else { throw ValidationError("--from must be a date YYYY-MM-DD") }
        guard let to = Day(iso: to) else { throw ValidationError("--to must be a date YYYY-MM-DD") }
        guard let bucket = Bucket(rawValue: bucket) else { throw ValidationError("--bucket must be day, week or month") }
        let kind = try kind.map { raw in
            guard let kind = ReportKind(rawValue: raw) else { throw ValidationError("--kind must be covid or misconduct") }
            return kind
        }
        let opened = try await store.opened(reading: true), db = opened.store
        guard let summary = try await db.layers().first(where: { $0.name == layer }), let version = summary.publishedVersion, summary.kind == .areas else {
            throw CommandFailure("no published area layer \"\(layer)\"")
        }
        // Ids and denominators are all an export needs of the areas: no index to build.
        let areas = try await db.areas(layer: layer, version: version)
        let publications = try await PublicationBook.loaded(from: db)
        let export = AreaStatsExport(publications: publications, audit: db, policy: try publication.policy(), timeZone: opened.timeZone)
        let parameters = AreaStatsExport.Parameters(layer: layer, from: from, to: to, bucket: bucket, kind: kind)
        let (table, provenance) = try await export.run(parameters, areaIDs: areas.map(\.id), denominators: StoredArea.denominators(areas),
                                                       layerVersion: version, actor: "cli")
        if let out {
            try Data(table.csv().utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try encoder.encode(provenance).write(to: URL(fileURLWithPath: out + ".provenance.json"), options: .atomic)
            printError("wrote \(table.rows.count) rows to \(out) (threshold \(provenance.threshold), publication \(provenance.publication.map(String.init) ?? "none"))")
        } else {
            print(table.csv(), terminator: "")
        }
    }
}
