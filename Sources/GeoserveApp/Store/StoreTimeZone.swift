import Foundation
import Storage

/// The campus time zone a store counts its days in, recorded with the store.
///
/// Every counter cell, window and publication day is a day of one zone. A store that did not know
/// its zone was checked by a command left at the default (UTC): on a store served in
/// America/Chicago, `aggregates check` found 8 cells "wrong" and recommended `rebuild`, which moved
/// them into UTC days, and the check in the service's own zone then failed in those 8. So the
/// zone is recorded with the store, and every command and process uses it unless given one:
/// - a store records its zone when it is opened empty (the zone given, else UTC), or when one is
///   given and none is recorded yet (a store from before zones were recorded: the service's
///   environment file names its zone at its first start after the upgrade);
/// - a zone given (`--time-zone`, `GEOSERVE_TIME_ZONE`) that is not the recorded one is refused,
///   naming both, before anything is written;
/// - a store from before, opened with no zone given, is counted in UTC as before, and says that
///   it does not know its zone (`Settled.recorded`): a repair of its counters needs the zone.
///
/// Kept in the installation's values (`SecretStore`, as the drill marker is): create-if-absent is
/// atomic across processes, and backups, restores and `migrate-store` carry it with the rest.
package enum StoreTimeZone {
    static let marker = "time_zone"
    static let utc = TimeZone(identifier: "UTC")!

    /// A store's zone, once settled.
    package struct Settled: Sendable, Equatable {
        package let zone: TimeZone
        /// Whether the store records it; false for a store from before zones were recorded,
        /// opened with no zone given.
        package let recorded: Bool
    }

    /// A zone given that is not the store's.
    package struct Mismatch: Error, CustomStringConvertible, Equatable {
        package let recorded: String
        package let given: String

        package var description: String {
            "this store counts its days in \(recorded), recorded at its first write; the time zone given (--time-zone or "
                + "GEOSERVE_TIME_ZONE) is \(given), which would put reports on other days: give \(recorded) or leave the zone out "
                + "(if \(recorded) was recorded by mistake, `geoserve time-zone set \(given)` with the service stopped records it and recounts the counters)"
        }
    }

    /// The zone `store` counts its days in, recording it where the rules above say.
    /// - Parameter given: the zone given by flag or environment; nil when none was.
    package static func settle(_ store: any SecretStore & StoreCopy, given: TimeZone?) async throws -> Settled {
        if let recorded = try await store.existingSecret(named: marker) { return try settled(recorded, given: given) }
        if let given { return try settled(try await store.secret(named: marker, ifAbsent: name(given)), given: given) }
        guard try await store.isEmpty() else { return Settled(zone: utc, recorded: false) }
        return try settled(try await store.secret(named: marker, ifAbsent: name(utc)), given: nil)
    }

    /// A zone's name as recorded and compared: Foundation names UTC "GMT", which no operator wrote.
    package static func name(_ zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }

    private static func settled(_ recorded: String, given: TimeZone?) throws -> Settled {
        if let given, name(given) != recorded { throw Mismatch(recorded: recorded, given: name(given)) }
        // A recorded name this machine's zone database lacks is refused rather than read as UTC.
        guard let zone = TimeZone(identifier: recorded) else {
            throw Mismatch(recorded: recorded, given: given.map(name) ?? "unknown on this machine")
        }
        return Settled(zone: zone, recorded: true)
    }
}

extension StoreTimeZone {
    /// Settles the zone of `store` (opened with `settings`, migrated, its keys checked) and hands
    /// back the store as it counts in that zone: itself when `settings` named it, else the same
    /// location opened again in it, with `keys` given to it too (an opening without the audit
    /// key writes entries no check can verify).
    package static func settled(_ store: any GeoserveStore, opened settings: StoreSettings, given: TimeZone?,
                                keys: InstallationKeys) async throws -> (store: any GeoserveStore, zone: Settled) {
        let zone = try await settle(store, given: given)
        guard zone.zone.identifier != settings.timeZone.identifier else { return (store, zone) }
        var settings = settings
        settings.timeZone = zone.zone
        let reopened = try openStore(settings)
        try await keys.give(to: reopened)
        return (reopened, zone)
    }
}

extension StoreTimeZone {
    /// Records `zone` as the store's, in place of the one recorded; the zone recorded before
    /// (nil: none). The counters are then another zone's days until rebuilt, which
    /// `aggregates check` finds and, the zone being recorded, repairs with `rebuild`.
    package static func change(_ store: any SecretStore, to zone: TimeZone) async throws -> String? {
        let before = try await store.existingSecret(named: marker)
        try await store.removeSecret(named: marker)
        _ = try await store.secret(named: marker, ifAbsent: name(zone))
        return before
    }
}
