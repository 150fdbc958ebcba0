import ArgumentParser
import Foundation
import GeoserveApp
import Storage

/// The raw report rows for an admin, for migration or backup: ids, statuses, days, exact
/// locations and payloads. Personal data: the export is recorded in the audit trail.
struct ExportReportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reports",
        abstract: "Write every report as a CSV row (the columns import-reports reads); recorded in the audit trail.",
        discussion: "The rows carry personal data (exact locations, payloads): keep the file as you keep the database."
    )

    @Option(help: "Output CSV file.") var out: String
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let db = try await store.open(bulk: true, reading: true)
        let count = try await db.exportReports(to: URL(fileURLWithPath: out))
        try await db.recordEvent(actor: "cli", action: "export-reports", detail: "rows=\(count)")
        printError("wrote \(count) reports to \(out)")
    }
}
