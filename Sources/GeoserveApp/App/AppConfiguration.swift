import GeoCore
import Aggregation
import Foundation
import Logging
import MapTiles
import ReportVerification
import Storage
import Support

/// Everything the service needs to start; the `serve` command maps flags and `GEOSERVE_*`
/// variables into it and tests build it directly.
package struct AppConfiguration: Sendable, RedactedDescription {
    package init() {}

    package var host = "127.0.0.1"
    package var port = 8080
    /// Where the store lives (`StoreLocation`): a SQLite file path or a PostgreSQL URI.
    package var database = "var/geoserve.sqlite"
    /// The most PostgreSQL connections this process opens.
    package var databaseConnections = StoreSettings.defaultConnections
    /// The longest one PostgreSQL statement may run.
    package var statementTimeout = Duration.seconds(30)
    /// Fill a store without reports with synthetic demo reports and their publications at start.
    package var demoReports = false
    /// Folder whose layers are imported when the store has none; nil imports nothing.
    package var demoDataPath: String? = "data"
    package var logLevel: Logger.Level = .info
    /// Text for a terminal, JSON lines for a pipeline; `auto` picks by standard error.
    package var logFormat = LogFormat.auto
    /// Who may read `/metrics` on the service's port without a token.
    package var metricsAllow = MetricsAccess.loopback
    /// A second port serving only `/metrics`, to whoever reaches it; nil for none.
    package var metricsPort: Int?
    /// How long a stop may take: requests still running after it are cut off (exit 1).
    package var shutdownGrace = Duration.seconds(20)
    /// How long `/readyz` answers draining before the server stops accepting, within the grace.
    package var drainDelay = Duration.seconds(2)
    /// Password hashing and token lifetime.
    var credentials = Credentials()
    /// The campus's time zone: report days are its days. Checked against the zone the store
    /// records (`StoreTimeZone`), and replaced by it when not given.
    package var timeZone = TimeZone(identifier: "UTC")!
    /// Whether `timeZone` was given (flag or environment) rather than left to the store.
    package var timeZoneGiven = true
    /// Revisions kept per report (the newest).
    var revisionsKept = 5
    /// Largest attachment accepted, in bytes.
    package var maxAttachmentBytes = 64 << 20
    /// Bytes of one layer uploaded through the API (bigger layers go through `import-areas`).
    var maxLayerUploadBytes = 64 << 20
    /// Files and bytes one report's attachments may hold together.
    package var attachmentLimits = AttachmentLimits(count: ReportLimits.attachments, totalBytes: 256 << 20)
    /// Free bytes kept on the attachments' disk: an upload that would go below is refused (507).
    package var minFreeDiskBytes: Int64 = 256 << 20
    /// Anonymous reports and uploads per client address per minute; 0 for no limit.
    package var anonymousPerMinute = 30
    /// The bits of an IPv6 client address that share one budget: a customer's network is a /64.
    package var anonymousIPv6Prefix = 64
    /// Anonymous reports awaiting verification at once before anonymous intake answers 503; 0
    /// for no bound. Ten thousand is months of a campus's reports, and minutes of a flood.
    package var maxPendingAnonymous = 10_000
    /// Bytes of anonymous uploads per client address per hour; 0 for no limit.
    package var anonymousUploadBytesPerHour = 1 << 30
    /// Reports and uploads per signed-in account per minute; 0 for no limit. A person reports a
    /// few times a year; an import goes through `geoserve import-reports`, not the API.
    package var accountWritesPerMinute = 60
    /// Failed logins per account, and per client address, in `loginWindow` seconds.
    package var loginFailuresPerAccount = 10
    package var loginFailuresPerAddress = 100
    var loginWindow: TimeInterval = 15 * 60
    /// Peers whose `X-Forwarded-For` names the client (a reverse proxy); loopback unless set.
    package var trustedProxies = ClientAddress.loopback
    /// Time and size limits per connection.
    package var connectionLimits = ConnectionLimits()
    /// Connections open at once; further clients wait until one closes.
    package var maxConnections = ConnectionCap.defaultMaximum()
    /// Where the border topologies of large layers' tiles are saved and read back, beside the
    /// area indexes; nil when turned off.
    package var topologyFiles: TopologyFiles? {
        get throws { try indexFiles.map(TopologyFiles.init(beside:)) }
    }

    /// Where attachment files live: beside the database unless set.
    package var attachmentsPath: String?
    /// The installation's key file: beside the database unless set.
    package var keysPath: String?
    /// Where area indexes are saved: beside the database unless set; "none" saves none.
    package var indexCachePath: String?
    /// Origins allowed to read responses from browser code; `*` for every origin.
    package var corsOrigins = ["*"]
    /// Origins whose browser code may file and read reports (`CrossOriginMiddleware.intakeOrigins`); none by default.
    package var intakeOrigins: [String] = []
    /// Where status notifications are sent, signed; none by default.
    package var webhooks = WebhookConfiguration.none
    /// The file the webhook secret was read from, for `geoserve config` (nil when it came from
    /// `GEOSERVE_WEBHOOK_SECRET` itself).
    package var webhookSecretFile: String?
    /// The service's public base URL for links (e.g. `https://maps.campus.example`); nil derives
    /// it from the request's `Host` header.
    package var publicURL: String?
    /// Hosts a request's `Host` header may name when no public URL is set; `*` for any.
    package var allowedHosts = LinkBase.localHosts
    /// Where Debian's libjs-leaflet put Leaflet, which the dashboard's map loads.
    package var leafletFolder = LeafletFiles.defaultFolder
    /// A base map under the dashboard's numbers; none by default (the service needs no internet).
    package var basemap: BaseMap?
    /// Decimal places of GeoJSON coordinates (6 ≈ 10 cm).
    package var coordinatePrecision = 6
    /// Disclosure control: the smallest count shown to each audience.
    package var disclosure = DisclosurePolicy.default
    /// When numbers are published by themselves.
    package var publicationSchedule = PublicationSchedule.default
    /// Bytes of encoded responses kept in memory.
    package var responseCacheBytes = 64 << 20
    /// Bytes of encoded tiles kept in memory.
    package var tileCacheBytes = 128 << 20
    /// Bytes of simplified tile geometry (per layer version, zoom and scale) kept in memory.
    package var tileGeometryBytes = 256 << 20
    /// Released statistics, feature fragments and tile paintings kept (each); 0 keeps none.
    package var statisticsCacheEntries = 256
    /// Bytes of released statistics kept, and of live views (a live view about 390 MB at 300,000
    /// areas; a published release holds only its areas with reports).
    package var statisticsCacheBytes = 512 << 20
    /// How often the store's data version is polled: another process's changes (a layer
    /// imported by the CLI, a second server) are served within this time.
    var dataVersionInterval = Duration.milliseconds(250)
    /// How often the webhook backlog gauges are counted from the outbox.
    var notificationBacklogInterval = Duration.seconds(10)

    /// How the store is opened.
    var storeSettings: StoreSettings {
        get throws {
            StoreSettings(location: try StoreLocation(database), timeZone: timeZone, connections: databaseConnections, statementTimeout: statementTimeout)
        }
    }

    /// The key file in effect.
    package var keysFile: String {
        get throws { try keysPath ?? InstallationKeys.defaultPath(for: StoreLocation(database)) }
    }

    /// Where area indexes of large layers are saved and read back; nil when turned off.
    package var indexFiles: AreaIndexFiles? {
        get throws {
            if indexCachePath == "none" { return nil }
            return AreaIndexFiles(directory: try indexCachePath.map { URL(fileURLWithPath: $0) } ?? StoreLocation(database).defaultIndexFolder)
        }
    }

    /// Where attachment files live: the configured folder, else beside the database file.
    package var attachmentsFolder: URL {
        get throws {
            try attachmentsPath.map { URL(fileURLWithPath: $0) } ?? StoreLocation(database).defaultAttachmentsFolder
        }
    }

    /// The limits on writes, one set per process.
    func intakeRateLimit() -> IntakeRateLimit {
        IntakeRateLimit(requests: RateLimiter(perMinute: anonymousPerMinute),
                        uploadBytes: RateLimiter(perMinute: anonymousUploadBytesPerHour / 60, burst: anonymousUploadBytesPerHour),
                        accounts: RateLimiter(perMinute: accountWritesPerMinute),
                        addresses: ClientAddress(trustedProxies: trustedProxies), ipv6Prefix: anonymousIPv6Prefix,
                        pending: PendingAnonymousBound(limit: maxPendingAnonymous))
    }

    /// How links in responses are built.
    var linkBase: LinkBase {
        let listening = host == "0.0.0.0" || host == "::" ? "localhost" : (host.contains(":") ? "[\(host)]" : host)
        return LinkBase(publicURL: publicURL, allowedHosts: allowedHosts.union([listening.lowercased()]), listenAddress: "http://\(listening):\(port)")
    }

    func loginThrottle(_ store: any LoginThrottleStore) -> LoginThrottle {
        LoginThrottle(store: store, perAccount: loginFailuresPerAccount, perAddress: loginFailuresPerAddress, window: loginWindow)
    }
}
