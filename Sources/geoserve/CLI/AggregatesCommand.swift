import Aggregation
import ArgumentParser
import DomainKernel
import Foundation
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
        let opened = try await store.opened(bulk: true, reading: true), db = opened.store
        let differences = try await db.checkCounters()
        guard differences.isEmpty else {
            for d in differences.prefix(50) {
                let k = d.key
                printError("\(k.layer)/\(k.areaID) \(k.kind) \(k.status) \(k.basis.rawValue) \(k.day.iso) \(k.group?.name ?? "-"): stored \(d.stored), recomputed \(d.recomputed)")
            }
            if differences.count > 50 { printError("… and \(differences.count - 50) more") }
            printError("counters differ from the reports in \(differences.count) cells, counting days in \(StoreTimeZone.name(opened.timeZone))")
            // A rebuild in another zone than the one the counters were kept in "repairs" every
            // cell near midnight into the wrong day: it is recommended only where the zone is known.
            if opened.zoneRecorded {
                printError("`geoserve aggregates rebuild` repairs them in \(StoreTimeZone.name(opened.timeZone)), the zone this store records")
            } else {
                printError(AggregatesRebuildCommand.unknownZone)
            }
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

    /// Why a store that does not know its zone is not rebuilt without one.
    static let unknownZone = "this store does not record its time zone, so these days are UTC days: if the service runs in another zone, "
        + "check again with --time-zone set to the service's zone (GEOSERVE_TIME_ZONE in its environment file), which records it; "
        + "`geoserve aggregates rebuild` runs only once the zone is known"

    func run() async throws {
        let opened = try await store.opened(bulk: true), db = opened.store
        guard opened.zoneRecorded else { throw CommandFailure(Self.unknownZone) }
        let repaired = try await db.rebuildCounters()
        try await db.recordEvent(actor: "cli", action: "rebuild-counters", detail: "cells repaired=\(repaired)")
        print(repaired == 0 ? "counters already matched the reports" : "rebuilt the counters: \(repaired) cells were wrong")
    }
}
