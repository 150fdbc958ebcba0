import GeoCore
import Aggregation
import ArgumentParser
import Foundation
import GeoserveApp
import Logging
import NIOCore
import Storage

/// Prints the configuration `serve` would run with, from the same flags and `GEOSERVE_*`
/// variables, as an environment file: what an operator checks before a start and pastes into a
/// service manager, and reads back as the same configuration. Secrets are never printed: a
/// PostgreSQL URI is printed without its password (libpq reads it from `PGPASSFILE`), the webhook
/// secret by its file, the key file by its path; what cannot be printed is said in a comment.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the effective configuration of serve (secrets masked).",
        discussion: "Takes every flag serve takes; prints one GEOSERVE_* line per setting, in the form an environment file takes."
    )

    @OptionGroup var options: ServeOptions

    func run() throws {
        print(Self.render(try options.configuration()), terminator: "")
    }

    static func render(_ c: AppConfiguration) -> String {
        var out = "# geoserve \(GeoserveVersion.current): the configuration serve would run with\n"
        for (section, name, value) in settings(c) {
            if !section.isEmpty { out += "\n# \(section)\n" }
            out += "\(name)=\(value)\n"
        }
        out += "\n# Fixed: JSON request bodies up to 256 KiB; request heads up to 16 KiB a field, 32 KiB in all.\n"
        for note in notes(c) { out += "# \(note)\n" }
        return out
    }

    /// What the file cannot say, and why.
    static func notes(_ c: AppConfiguration) -> [String] {
        var notes: [String] = []
        if let location = try? StoreLocation(c.database), location.printable.droppedPassword {
            notes.append("GEOSERVE_DATABASE: the password in the given URI is not printed; keep it in a libpq password file named by PGPASSFILE (docs/postgresql.md)")
        }
        if !c.webhooks.secret.isEmpty, c.webhookSecretFile == nil {
            notes.append("GEOSERVE_WEBHOOK_SECRET is set in the environment and not printed: put it in a file and name it with GEOSERVE_WEBHOOK_SECRET_FILE")
        }
        if !c.timeZoneGiven {
            notes.append("GEOSERVE_TIME_ZONE: none given, so the zone the store records is used (UTC for a new store, which records it)")
        }
        if c.webhooks.endpoints.contains(where: { $0.shown.contains("***") }) {
            notes.append("GEOSERVE_WEBHOOKS: an address holding a token is masked (***), and refused if read back: give it from the original")
        }
        return notes
    }

    /// Where libpq reads a PostgreSQL store's password: the printed URI has none, so the printed
    /// environment reads back only with this beside it (its path; the file is never read here).
    static func passwordFile(_ c: AppConfiguration) -> [(String, String, String)] {
        guard case .postgres? = try? StoreLocation(c.database), let path = ProcessInfo.processInfo.environment["PGPASSFILE"], !path.isEmpty else { return [] }
        return [("", "PGPASSFILE", path)]
    }

    /// Every setting as (section heading, variable, value), secrets masked.
    static func settings(_ c: AppConfiguration) -> [(String, String, String)] {
        let location = (try? StoreLocation(c.database)).map(\.printable.text) ?? c.database
        let seconds: (Duration) -> String = { "\($0.components.seconds)" }
        let mb: (Int) -> String = { "\($0 >> 20)" }
        return [
            ("Listening", "GEOSERVE_HOST", c.host),
            ("", "GEOSERVE_PORT", "\(c.port)"),
            ("", "GEOSERVE_PUBLIC_URL", c.publicURL ?? ""),
            ("", "GEOSERVE_ALLOWED_HOSTS", c.allowedHosts.sorted().joined(separator: ",")),
            ("", "GEOSERVE_CORS_ORIGINS", c.corsOrigins.joined(separator: ",")),
            ("", "GEOSERVE_INTAKE_ORIGINS", c.intakeOrigins.joined(separator: ",")),
            ("Store", "GEOSERVE_DATABASE", location),
        ] + Self.passwordFile(c) + [
            ("", "GEOSERVE_DATABASE_CONNECTIONS", "\(c.databaseConnections)"),
            ("", "GEOSERVE_STATEMENT_TIMEOUT", seconds(c.statementTimeout)),
            ("", "GEOSERVE_TIME_ZONE", c.timeZoneGiven ? c.timeZone.identifier : ""),
            ("", "GEOSERVE_KEYS", (try? c.keysFile) ?? ""),
            ("", "GEOSERVE_ATTACHMENTS", (try? c.attachmentsFolder.path) ?? ""),
            ("", "GEOSERVE_INDEX_CACHE", (try? c.indexFiles?.directory.path) ?? "none"),
            ("", "GEOSERVE_DEMO_DATA", c.demoDataPath ?? "none"),
            ("", "GEOSERVE_DEMO_REPORTS", c.demoReports ? "1" : "0"),
            ("Publication", "GEOSERVE_K_PUBLIC", "\(c.disclosure.threshold(for: .public))"),
            ("", "GEOSERVE_PUBLISH_AT", c.publicationSchedule.isNever ? "never" : c.publicationSchedule.text.joined(separator: ",")),
            ("Serving", "GEOSERVE_PRECISION", "\(c.coordinatePrecision)"),
            ("", "GEOSERVE_RESPONSE_CACHE_MB", mb(c.responseCacheBytes)),
            ("", "GEOSERVE_TILE_CACHE_MB", mb(c.tileCacheBytes)),
            ("", "GEOSERVE_TILE_GEOMETRY_MB", mb(c.tileGeometryBytes)),
            ("", "GEOSERVE_STATISTICS_CACHE_ENTRIES", "\(c.statisticsCacheEntries)"),
            ("", "GEOSERVE_STATISTICS_CACHE_MB", mb(c.statisticsCacheBytes)),
            ("", "GEOSERVE_LEAFLET_FOLDER", c.leafletFolder),
            ("", "GEOSERVE_BASEMAP", c.basemap?.urlTemplate ?? ""),
            ("", "GEOSERVE_BASEMAP_ATTRIBUTION", c.basemap?.attribution ?? ""),
            ("Limits", "GEOSERVE_ATTACHMENT_MB", mb(c.maxAttachmentBytes)),
            ("", "GEOSERVE_REPORT_ATTACHMENTS_MB", mb(c.attachmentLimits.totalBytes)),
            ("", "GEOSERVE_MIN_FREE_DISK_MB", "\(c.minFreeDiskBytes >> 20)"),
            ("", "GEOSERVE_ANONYMOUS_PER_MINUTE", "\(c.anonymousPerMinute)"),
            ("", "GEOSERVE_ANONYMOUS_IPV6_PREFIX", "\(c.anonymousIPv6Prefix)"),
            ("", "GEOSERVE_MAX_PENDING_ANONYMOUS", "\(c.maxPendingAnonymous)"),
            ("", "GEOSERVE_ANONYMOUS_UPLOAD_MB_PER_HOUR", mb(c.anonymousUploadBytesPerHour)),
            ("", "GEOSERVE_ACCOUNT_WRITES_PER_MINUTE", "\(c.accountWritesPerMinute)"),
            ("", "GEOSERVE_LOGIN_FAILURES_PER_ACCOUNT", "\(c.loginFailuresPerAccount)"),
            ("", "GEOSERVE_LOGIN_FAILURES_PER_ADDRESS", "\(c.loginFailuresPerAddress)"),
            ("", "GEOSERVE_TRUSTED_PROXIES", c.trustedProxies.isEmpty ? "none" : c.trustedProxies.sorted().joined(separator: ",")),
            ("", "GEOSERVE_HEADER_TIMEOUT", "\(c.connectionLimits.headerTimeout.nanoseconds / 1_000_000_000)"),
            ("", "GEOSERVE_BODY_TIMEOUT", "\(c.connectionLimits.bodyTimeout.nanoseconds / 1_000_000_000)"),
            ("", "GEOSERVE_KEEP_ALIVE_TIMEOUT", "\(c.connectionLimits.keepAliveTimeout.nanoseconds / 1_000_000_000)"),
            ("", "GEOSERVE_MAX_CONNECTIONS", "\(c.maxConnections)"),
            ("Operations", "GEOSERVE_LOG_LEVEL", c.logLevel.rawValue),
            ("", "GEOSERVE_LOG_FORMAT", c.logFormat.rawValue),
            ("", "GEOSERVE_METRICS_ALLOW", c.metricsAllow.description),
            ("", "GEOSERVE_METRICS_PORT", c.metricsPort.map(String.init) ?? ""),
            ("Notifications", "GEOSERVE_WEBHOOKS", c.webhooks.endpoints.map(\.shown).joined(separator: ",")),
            ("", "GEOSERVE_WEBHOOK_SECRET_FILE", c.webhookSecretFile ?? ""),
            ("", "GEOSERVE_WEBHOOK_ALLOW_LOCAL", c.webhooks.allowsLocal ? "1" : "0"),
            ("", "GEOSERVE_SHUTDOWN_GRACE", seconds(c.shutdownGrace)),
            ("", "GEOSERVE_DRAIN_DELAY", seconds(c.drainDelay)),
        ]
    }
}
