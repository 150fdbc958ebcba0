import ArgumentParser
import Foundation
import GeoserveApp
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the HTTP service.",
        discussion: """
        On SIGTERM or SIGINT, /readyz answers draining for --drain-delay seconds, then the server \
        stops accepting, finishes the requests in flight and exits 0; what still runs after \
        --shutdown-grace seconds is cut off (exit 1).
        """
    )

    @OptionGroup var options: ServeOptions

    func run() async throws {
        let config = try options.configuration()
        config.logFormat.bootstrap(level: config.logLevel)
        var logger = Logger(label: "geoserve")
        logger.logLevel = config.logLevel
        // Which build runs with what, on the first line of every start (secrets masked, as `geoserve config` prints them).
        var effective: Logger.Metadata = ["version": "\(GeoserveVersion.current)"]
        for (_, name, value) in ConfigCommand.settings(config) { effective[name] = "\(value)" }
        // Receivers' paths may be their tokens: the log names their hosts only.
        effective["GEOSERVE_WEBHOOKS"] = "\(config.webhooks.endpoints.map(\.logged).joined(separator: ","))"
        logger.notice("starting", metadata: effective)
        let metrics = ServiceMetrics()
        let readiness = Readiness()
        let app = try await buildApplication(config, metrics: metrics, readiness: readiness)
        var services: [any Service] = []
        if let port = config.metricsPort {
            services.append(metricsApplication(metrics: metrics, host: config.host, port: port, logger: logger))
        }
        // A group stops its services last first: the drain, then the server (in-flight requests
        // and the intake batch they wait on), then the metrics port.
        services.append(app)
        var configurations = services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        // Its end is the start of the server's stop, not a reason to cancel the others.
        configurations.append(.init(service: DrainService(readiness: readiness, delay: config.drainDelay, logger: logger),
                                    successTerminationBehavior: .ignore))
        var group = ServiceGroupConfiguration(services: configurations, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = config.shutdownGrace
        // After the grace, running tasks are cancelled; one that ignores it ends the process.
        group.maximumCancellationDuration = .seconds(5)
        // Batched log lines are written before the process ends, however it ends.
        defer { LogSink.standardError.flush() }
        try await ServiceGroup(configuration: group).run()
        if let began = readiness.stopBegan, ContinuousClock.now - began > config.shutdownGrace {
            logger.error("stopped after the shutdown grace: requests still running were cut off",
                         metadata: ["grace_seconds": .stringConvertible(config.shutdownGrace.components.seconds)])
            throw ExitCode(1)
        }
        logger.notice("stopped")
    }
}
