import Aggregation
import ArgumentParser
import Foundation
import GeoserveApp
import Logging

/// Every flag of `serve`, shared with `config`, which prints what they add up to.
struct ServeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Address to listen on (env GEOSERVE_HOST, default 127.0.0.1).", valueName: "address"))
    var host: String?

    @Option(help: "Port to listen on (env GEOSERVE_PORT, default 8080).")
    var port: Int?

    @Option(name: .customLong("demo-data"), help: ArgumentHelp("Folder imported when the store has no layers (env GEOSERVE_DEMO_DATA, default data; 'none' to skip).", valueName: "folder"))
    var demoData: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (env GEOSERVE_LOG_LEVEL, default info).")
    var logLevel: String?

    @Option(name: .customLong("cors-origins"), help: ArgumentHelp("Comma-separated origins browser code may read from, or * (env GEOSERVE_CORS_ORIGINS, default *).", valueName: "origins"))
    var corsOrigins: String?

    @Option(name: .customLong("intake-origins"), help: ArgumentHelp("Comma-separated origins whose browser code may file and read reports (paths under /v1/reports), or * (env GEOSERVE_INTAKE_ORIGINS, default none: only this service's pages).", valueName: "origins"))
    var intakeOrigins: String?

    @Option(name: .customLong("public-url"), help: ArgumentHelp("Base URL for links, e.g. https://maps.campus.example (env GEOSERVE_PUBLIC_URL; default from the Host header).", valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("allowed-hosts"), help: ArgumentHelp("Without --public-url: comma-separated host names a request's Host header may name in links, or * (env GEOSERVE_ALLOWED_HOSTS, default localhost and the listen address); others get links to the listen address.", valueName: "hosts"))
    var allowedHosts: String?

    @Option(help: "Decimal places of GeoJSON coordinates, 1-15 (env GEOSERVE_PRECISION, default 6).")
    var precision: Int?

    @Option(name: .customLong("response-cache-mb"), help: "MiB of encoded public GeoJSON responses kept in memory; 0 keeps none (env GEOSERVE_RESPONSE_CACHE_MB, default 64).")
    var responseCacheMB: Int?

    @Option(name: .customLong("tile-cache-mb"), help: "MiB of encoded tiles kept in memory; 0 keeps none (env GEOSERVE_TILE_CACHE_MB, default 128).")
    var tileCacheMB: Int?

    @Option(name: .customLong("tile-geometry-mb"), help: "MiB of simplified tile geometry kept in memory, per layer and zoom; an evicted zoom is simplified again on its next tile (env GEOSERVE_TILE_GEOMETRY_MB, default 256).")
    var tileGeometryMB: Int?

    @Option(name: .customLong("statistics-cache-entries"), help: "Released statistics kept per kind (releases, feature fragments, tile paintings); 0 keeps none (env GEOSERVE_STATISTICS_CACHE_ENTRIES, default 256).")
    var statisticsCacheEntries: Int?

    @Option(name: .customLong("statistics-cache-mb"), help: "MiB of released statistics kept, and MiB of the verifiers' live views, least recently used dropped first; at 300,000 areas a published release holds only its areas with reports (a few MiB at most), a live view about 390 (env GEOSERVE_STATISTICS_CACHE_MB, default 512).")
    var statisticsCacheMB: Int?

    @Option(help: ArgumentHelp("Folder of attachment files; several processes need one they share (env GEOSERVE_ATTACHMENTS; default attachments/ beside a SQLite file, var/attachments for PostgreSQL).", valueName: "folder"))
    var attachments: String?

    @Flag(name: .customLong("demo-reports"), help: "At start, fill a store without reports with synthetic, clearly marked demo reports published day by day over 28 days (env GEOSERVE_DEMO_REPORTS=1); never on a store with reports.")
    var demoReports = false

    @Option(name: .customLong("leaflet-folder"), help: ArgumentHelp("Where Leaflet's files are, for the dashboard's map (env GEOSERVE_LEAFLET_FOLDER, default Debian's libjs-leaflet, /usr/share/javascript/leaflet).", valueName: "folder"))
    var leafletFolder: String?

    @Option(help: ArgumentHelp("A base map under the dashboard's numbers: an XYZ tile URL template with {z}, {x} and {y} (and {s} for subdomains); none by default, so the service runs without the internet. Its origin is added to the pages' img-src (env GEOSERVE_BASEMAP).", valueName: "url-template"))
    var basemap: String?

    @Option(name: .customLong("basemap-attribution"), help: ArgumentHelp("The base map's attribution as its provider asks for it, shown on the map; needed with --basemap (env GEOSERVE_BASEMAP_ATTRIBUTION).", valueName: "text"))
    var basemapAttribution: String?

    @OptionGroup var store: StoreOptions

    @OptionGroup(title: "Publication") var publication: PublicationOptions

    @OptionGroup(title: "Limits") var limits: LimitOptions

    @OptionGroup(title: "Operations") var operations: OperationsOptions

    @OptionGroup(title: "Notifications") var notifications: NotificationOptions

    /// The configuration these flags and variables give, checked.
    func configuration() throws -> AppConfiguration {
        var config = AppConfiguration()
        config.host = EnvironmentDefault.string(host, "GEOSERVE_HOST", config.host)
        config.port = try EnvironmentDefault.int(port, "GEOSERVE_PORT", config.port)
        guard (0...65535).contains(config.port) else { throw ValidationError("port \(config.port) is outside 0...65535") }
        let settings = try store.settings()
        config.database = store.location
        config.timeZone = settings.timeZone
        config.timeZoneGiven = try store.givenTimeZone() != nil
        config.databaseConnections = settings.connections
        config.statementTimeout = settings.statementTimeout
        let folder = EnvironmentDefault.string(attachments, "GEOSERVE_ATTACHMENTS", "")
        config.attachmentsPath = folder.isEmpty ? nil : folder
        config.keysPath = try store.keysFile()
        config.indexCachePath = try store.indexFolder()?.path ?? "none"
        let demo = EnvironmentDefault.string(demoData, "GEOSERVE_DEMO_DATA", "data")
        config.demoDataPath = demo == "none" ? nil : demo
        let level = EnvironmentDefault.string(logLevel, "GEOSERVE_LOG_LEVEL", "info")
        guard let parsed = Logger.Level(rawValue: level) else { throw ValidationError("unknown log level \(level)") }
        config.logLevel = parsed
        config.disclosure = try publication.policy()
        config.publicationSchedule = try publication.schedule()
        config.corsOrigins = EnvironmentDefault.string(corsOrigins, "GEOSERVE_CORS_ORIGINS", "*")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        config.intakeOrigins = EnvironmentDefault.string(intakeOrigins, "GEOSERVE_INTAKE_ORIGINS", "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let url = EnvironmentDefault.string(publicURL, "GEOSERVE_PUBLIC_URL", "")
        config.publicURL = url.isEmpty ? nil : String(url.reversed().drop { $0 == "/" }.reversed())
        let hosts = EnvironmentDefault.string(allowedHosts, "GEOSERVE_ALLOWED_HOSTS", "")
        if !hosts.isEmpty {
            config.allowedHosts = Set(hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
        }
        config.coordinatePrecision = try EnvironmentDefault.int(precision, "GEOSERVE_PRECISION", config.coordinatePrecision)
        guard (1...15).contains(config.coordinatePrecision) else { throw ValidationError("precision must be 1 to 15") }
        let responseMB = try EnvironmentDefault.int(responseCacheMB, "GEOSERVE_RESPONSE_CACHE_MB", config.responseCacheBytes >> 20)
        let tileMB = try EnvironmentDefault.int(tileCacheMB, "GEOSERVE_TILE_CACHE_MB", config.tileCacheBytes >> 20)
        let geometryMB = try EnvironmentDefault.int(tileGeometryMB, "GEOSERVE_TILE_GEOMETRY_MB", config.tileGeometryBytes >> 20)
        config.statisticsCacheEntries = try EnvironmentDefault.int(statisticsCacheEntries, "GEOSERVE_STATISTICS_CACHE_ENTRIES", config.statisticsCacheEntries)
        let statisticsMB = try EnvironmentDefault.int(statisticsCacheMB, "GEOSERVE_STATISTICS_CACHE_MB", config.statisticsCacheBytes >> 20)
        guard (0...65_536).contains(responseMB), (0...65_536).contains(tileMB), (0...65_536).contains(geometryMB), (0...65_536).contains(statisticsMB),
              (0...1_000_000).contains(config.statisticsCacheEntries) else {
            throw ValidationError("cache sizes must be 0 or more (MiB at most 65536, entries at most 1000000)")
        }
        config.responseCacheBytes = responseMB << 20
        config.tileCacheBytes = tileMB << 20
        config.tileGeometryBytes = geometryMB << 20
        config.statisticsCacheBytes = statisticsMB << 20
        config.demoReports = demoReports || ["1", "true", "yes"].contains(EnvironmentDefault.string(nil, "GEOSERVE_DEMO_REPORTS", "0").lowercased())
        config.leafletFolder = EnvironmentDefault.string(leafletFolder, "GEOSERVE_LEAFLET_FOLDER", config.leafletFolder)
        let template = EnvironmentDefault.string(basemap, "GEOSERVE_BASEMAP", "")
        let attribution = EnvironmentDefault.string(basemapAttribution, "GEOSERVE_BASEMAP_ATTRIBUTION", "")
        if !template.isEmpty {
            do { config.basemap = try BaseMap(urlTemplate: template, attribution: attribution) } catch { throw ValidationError(error.description) }
        } else if !attribution.isEmpty {
            throw ValidationError("--basemap-attribution is for a base map: give --basemap too")
        }
        try limits.apply(to: &config)
        try operations.apply(to: &config)
        try notifications.apply(to: &config)
        return config
    }
}
