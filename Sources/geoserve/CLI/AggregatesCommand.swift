import Aggregation
import ArgumentParser
import DomainKernel
import GeoserveApp
import Storage

struct AggregatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aggregates",
        abstract: "Check or rebuild the aggregate counters.",
        subcommands: [AggregatesCheckCommand.self, AggregatesRebuildCommand.self]
    )
}

struct AggregatesCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Recompute every counter from the reports; exit 1 and list the cells that differ."
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let db = try await store.open()
        let differences = try await db.checkCounters()
        guard differences.isEmpty else {
            for d in differences.prefix(50) {
                let k = d.key
                printError("\(k.layer)/\(k.areaID) \(k.kind) \(k.status) \(k.basis.rawValue) \(k.day.iso) \(k.group?.name ?? "-"): stored \(d.stored), recomputed \(d.recomputed)")
            }
            if differences.count > 50 { printError("… and \(differences.count - 50) more") }
            printError("counters differ from the reports in \(differences.count) cells; `geoserve aggregates rebuild` repairs them")
            throw ExitCode(1)
        }
        print("counters match the reports")
    }
}

struct AggregatesRebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Replace the counters with a recompute from the reports, in one transaction."
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let db = try await store.open()
        let repaired = try await db.rebuildCounters()
        try await db.recordEvent(actor: "cli", action: "rebuild-counters", detail: "cells repaired=\(repaired)")
        print(repaired == 0 ? "counters already matched the reports" : "rebuilt the counters: \(repaired) cells were wrong")
    }
}
