import Hummingbird
import NIOCore
import ReportVerification
import Storage

/// `GET /metrics` in Prometheus's text format. On the service's port: for the addresses
/// `--metrics-allow` names, or for an admin's token from anywhere. On `--metrics-port`: for
/// whoever reaches that port, which the operator binds and firewalls.
struct MetricsController {
    let metrics: ServiceMetrics
    /// Nil on the metrics port, where reaching it is the permission.
    let access: MetricsAccess?
    let addresses: ClientAddress

    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("metrics") { request, context in
            // The router also matches /metrics/ and //metrics; a proxy rule blocking the exact
            // path would let those through, so only the exact path is served.
            guard request.uri.path == "/metrics" else { throw APIError.notFound("metrics are served at /metrics only") }
            if let access, context.account?.role != .admin, !access.allows(addresses.address(of: request, peer: context.remoteAddress)) {
                throw APIError(status: .forbidden, code: "forbidden",
                               message: "metrics are served to the addresses in --metrics-allow, on --metrics-port, or to an admin's token")
            }
            return Response(status: .ok, headers: [.contentType: Self.contentType, .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
    }
}
