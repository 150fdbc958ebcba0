import ArgumentParser
import Foundation
import GeoserveApp

/// How the service shows itself to its operator: the log's format, who reads the metrics, and
/// how a stop goes.
struct OperationsOptions: ParsableArguments {
    @Option(name: .customLong("log-format"), help: ArgumentHelp("auto, json or text: JSON lines for a log pipeline, text for a person; auto is text on a terminal and JSON otherwise (env GEOSERVE_LOG_FORMAT, default auto).", valueName: "format"))
    var logFormat: String?

    @Option(name: .customLong("metrics-allow"), help: ArgumentHelp("Client addresses or CIDR ranges that may read /metrics without a token, comma-separated, or none (env GEOSERVE_METRICS_ALLOW, default 127.0.0.1,::1). Admins' tokens read it from anywhere.", valueName: "addresses"))
    var metricsAllow: String?

    @Option(name: .customLong("metrics-port"), help: ArgumentHelp("A second port, on the same address, serving only /metrics to whoever reaches it (env GEOSERVE_METRICS_PORT, default none).", valueName: "port"))
    var metricsPort: Int?

    @Option(name: .customLong("shutdown-grace"), help: ArgumentHelp("Seconds a stop may take; requests still running then are cut off and the exit status is 1 (env GEOSERVE_SHUTDOWN_GRACE, default 20).", valueName: "seconds"))
    var shutdownGrace: Int?

    @Option(name: .customLong("drain-delay"), help: ArgumentHelp("Seconds /readyz answers draining before the server stops accepting, for a load balancer to notice (env GEOSERVE_DRAIN_DELAY, default 2).", valueName: "seconds"))
    var drainDelay: Int?

    func apply(to config: inout AppConfiguration) throws {
        let format = EnvironmentDefault.string(logFormat, "GEOSERVE_LOG_FORMAT", LogFormat.auto.rawValue)
        guard let parsed = LogFormat(rawValue: format) else { throw ValidationError("log format must be auto, json or text (got \"\(format)\")") }
        config.logFormat = parsed
        let allow = EnvironmentDefault.string(metricsAllow, "GEOSERVE_METRICS_ALLOW", "")
        if !allow.isEmpty {
            do { config.metricsAllow = try MetricsAccess(parsing: allow) } catch let error as MetricsAccessError {
                throw ValidationError(error.description)
            }
        }
        let port = try EnvironmentDefault.int(metricsPort, "GEOSERVE_METRICS_PORT", 0)
        guard (0...65535).contains(port) else { throw ValidationError("GEOSERVE_METRICS_PORT must be 1 to 65535") }
        guard port == 0 || port != config.port else { throw ValidationError("the metrics port must differ from the service's port \(config.port)") }
        config.metricsPort = port == 0 ? nil : port
        let grace = try EnvironmentDefault.int(shutdownGrace, "GEOSERVE_SHUTDOWN_GRACE", Int(config.shutdownGrace.components.seconds))
        let drain = try EnvironmentDefault.int(drainDelay, "GEOSERVE_DRAIN_DELAY", Int(config.drainDelay.components.seconds))
        guard (1...3_600).contains(grace) else { throw ValidationError("GEOSERVE_SHUTDOWN_GRACE must be 1 to 3600 seconds") }
        guard (0..<grace).contains(drain) else { throw ValidationError("GEOSERVE_DRAIN_DELAY must be 0 or more and less than the shutdown grace (\(grace) s)") }
        config.shutdownGrace = .seconds(grace)
        config.drainDelay = .seconds(drain)
    }
}
