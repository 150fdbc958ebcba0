import Hummingbird
import Logging

/// `--metrics-port`: a second listener that serves `/metrics` and nothing else, to whoever
/// reaches it; the operator binds and firewalls it like any scrape target.
///
/// Its connections get the same guard as the API's: a stalled or oversized client is closed,
/// and a scrape accepted as a stop closes the listener is closed instead of crashing the process.
package func metricsApplication(metrics: ServiceMetrics, host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
    let router = Router(context: AppRequestContext.self)
    MetricsController(metrics: metrics, access: nil, addresses: ClientAddress(trustedProxies: [])).addRoutes(to: router)
    return Application(
        router: router,
        // No route here takes a body; 64 KiB is a generous bound.
        server: .guardedHTTP1(limits: ConnectionLimits(), maxContentLength: 64 << 10, logger: logger),
        configuration: .init(address: .hostname(host, port: port), serverName: "geoserve-metrics"),
        logger: logger
    )
}
