import ArgumentParser
import Foundation
import GeoserveApp
import Storage

/// Moves an installation between stores: SQLite to PostgreSQL when a campus outgrows one
/// machine, or back (a PostgreSQL store into a file).
struct MigrateStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-store",
        abstract: "Copy every table of one store into another, empty store (e.g. SQLite to PostgreSQL).",
        discussion: """
        Stop the service first: the copy reads page by page. The target is created or migrated to \
        this geoserve's schema and must hold nothing yet. Rows are carried as they are — reports, \
        their areas, counters, the audit chain, accounts and tokens, the data version — and the \
        target's audit chain and counters are checked afterwards. Attachment files are not in the \
        database: copy the attachments folder too and point --attachments at it.
        """
    )

    @Option(help: ArgumentHelp("The store to copy: a SQLite path or a postgres:// URI.", valueName: "location"))
    var from: String

    @Option(help: ArgumentHelp("The empty store to fill: a SQLite path or a postgres:// URI.", valueName: "location"))
    var to: String

    @Option(help: "Rows per page and per target transaction.")
    var batch = 5000

    @Option(name: .customLong("time-zone"), help: ArgumentHelp("The campus's IANA time zone, for the counter check (env GEOSERVE_TIME_ZONE; default the zone the source records, else UTC).", valueName: "zone"))
    var timeZoneName: String?

    @Option(help: ArgumentHelp("The installation's key file; the copy is the same installation and keeps using it (env GEOSERVE_KEYS, default the source's).", valueName: "file"))
    var keys: String?

    func run() async throws {
        guard (1...100_000).contains(batch) else { throw ValidationError("--batch must be 1 to 100000") }
        let name = EnvironmentDefault.string(timeZoneName, "GEOSERVE_TIME_ZONE", "")
        let givenZone = name.isEmpty ? nil : TimeZone(identifier: name)
        if !name.isEmpty, givenZone == nil { throw ValidationError("unknown time zone \(name)") }
        let (fromLocation, toLocation): (StoreLocation, StoreLocation)
        do { (fromLocation, toLocation) = (try StoreLocation(from), try StoreLocation(to)) } catch let refused as StoreLocation.Refused {
            throw ValidationError(refused.description)
        }
        guard fromLocation != toLocation else { throw ValidationError("--from and --to name the same store") }
        // A copy moves every row: no statement timeout, as for the other bulk commands.
        let opened = StoreSettings(location: fromLocation, timeZone: givenZone ?? TimeZone(identifier: "UTC")!, statementTimeout: .zero)
        let unsettled = try openStore(opened)
        try await unsettled.migrate()
        let given = EnvironmentDefault.string(keys, "GEOSERVE_KEYS", "")
        let keyFile: String
        do { keyFile = given.isEmpty ? try InstallationKeys.defaultPath(for: fromLocation) : given } catch {
            throw CommandFailure(error.description)
        }
        let sourceKeys: InstallationKeys
        do { sourceKeys = try await InstallationKeys.load(path: keyFile, store: unsettled) } catch let problem as InstallationKeys.Problem {
            throw CommandFailure(problem.description)
        }
        // The source's zone, which its copied values carry to the target: the target is not
        // settled itself, since recording a zone there would collide with the copied one.
        let (source, zone): (any GeoserveStore, StoreTimeZone.Settled)
        do { (source, zone) = try await StoreTimeZone.settled(unsettled, opened: opened, given: givenZone, keys: sourceKeys) } catch let mismatch as StoreTimeZone.Mismatch {
            throw CommandFailure(mismatch.description)
        }
        let target = try openStore(StoreSettings(location: toLocation, timeZone: zone.zone, statementTimeout: .zero))
        try await target.migrate()
        guard try await target.isEmpty() else {
            throw CommandFailure("\(toLocation) already holds layers, accounts, reports or audit entries; migrate-store copies only into an empty store")
        }
        var copied: [(String, Int)] = []
        for table in StoreTable.all {
            var count = 0
            do {
                while true {
                    let rows = try await source.rows(of: table, offset: count, limit: batch)
                    guard !rows.isEmpty else { break }
                    try await target.insert(rows, into: table)
                    count += rows.count
                    if rows.count == batch { printError("\(table.name): \(count) rows") }
                }
            } catch {
                printError("the copy stopped in table \(table.name) after \(count) rows: \(error)")
                printError("\(toLocation) now holds part of the data: remove it (drop the database or delete the file) before copying again")
                throw ExitCode(1)
            }
            copied.append((table.name, count))
        }
        // The copy holds the source's key fingerprint: the same key file opens it.
        _ = try await InstallationKeys.load(path: keyFile, store: target)
        if let broken = try await target.verifyAuditChain() {
            printError("the copied audit chain breaks at entry \(broken)")
            throw ExitCode(1)
        }
        let differences = try await target.checkCounters()
        guard differences.isEmpty else {
            printError("\(differences.count) copied counter cells differ from a recount; run `geoserve aggregates rebuild` on the target")
            throw ExitCode(1)
        }
        for (table, count) in copied where count > 0 { print("\(table): \(count)") }
        print("copied \(fromLocation) into \(toLocation); audit chain and counters check clean")
        if let beside = try? InstallationKeys.defaultPath(for: toLocation) {
            if keyFile != beside { print("the copy uses the key file \(keyFile): give it with --keys (or copy it to \(beside))") }
        } else {
            print("the copy uses the key file \(keyFile): give it to every process and command on \(toLocation) with --keys or GEOSERVE_KEYS")
        }
    }
}
