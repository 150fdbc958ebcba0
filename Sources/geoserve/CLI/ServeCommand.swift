import ArgumentParser
import Hummingbird
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the HTTP service.",
        discussion: "Stops gracefully on SIGTERM or SIGINT: requests in flight finish first."
    )

    @Option(help: ArgumentHelp("Address to listen on (env GEOSERVE_HOST, default 127.0.0.1).", valueName: "address"))
    var host: String?

    @Option(help: "Port to listen on (env GEOSERVE_PORT, default 8080).")
    var port: Int?

    @Option(name: .customLong("demo-data"), help: ArgumentHelp("Folder imported when the store has no layers (env GEOSERVE_DEMO_DATA, default data; 'none' to skip).", valueName: "folder"))
    var demoData: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (env GEOSERVE_LOG_LEVEL, default info).")
    var logLevel: String?

    @OptionGroup var store: StoreOptions

    func run() async throws {
        var config = AppConfiguration()
        config.host = EnvironmentDefault.string(host, "GEOSERVE_HOST", config.host)
        config.port = try EnvironmentDefault.int(port, "GEOSERVE_PORT", config.port)
        guard (0...65535).contains(config.port) else { throw ValidationError("port \(config.port) is outside 0...65535") }
        config.databasePath = store.databasePath
        config.timeZone = try store.timeZone()
        let demo = EnvironmentDefault.string(demoData, "GEOSERVE_DEMO_DATA", "data")
        config.demoDataPath = demo == "none" ? nil : demo
        let level = EnvironmentDefault.string(logLevel, "GEOSERVE_LOG_LEVEL", "info")
        guard let parsed = Logger.Level(rawValue: level) else { throw ValidationError("unknown log level \(level)") }
        config.logLevel = parsed
        let app = try await buildApplication(config)
        try await app.runService()
    }
}
