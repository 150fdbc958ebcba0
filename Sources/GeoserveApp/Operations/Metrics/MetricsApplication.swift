import Hummingbird
import Logging

/// `--metrics-port`: a second listener that serves `/metrics` and nothing else, to whoever
/// reaches it; the operator binds and firewalls it like any scrape target.
package func metricsApplication(metrics: ServiceMetrics, host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
    let router = Router(context: AppRequestContext.self)
    MetricsController(metrics: metrics, access: nil, addresses: ClientAddress(trustedProxies: [])).addRoutes(to: router)
    return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "geoserve-metrics"), logger: logger)
}
