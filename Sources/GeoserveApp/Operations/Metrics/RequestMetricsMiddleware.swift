import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import Storage
import Synchronization

/// Counts requests and times them per route pattern, method and status class, and keeps the
/// number in flight. The route is the pattern the router matched (`/v1/reports/{id}`), never the
/// raw path, so ids and coordinates never become label values; unmatched paths count as one.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let metrics: ServiceMetrics
    private let series = RequestSeriesTable()

    init(metrics: ServiceMetrics) {
        self.metrics = metrics
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        metrics.inFlight.increment()
        do {
            let response = try await next(request, context)
            // Timed to the handler's answer: a streamed export's body is still being sent, and
            // wrapping every body to time its last byte would cost the small ones more.
            metrics.inFlight.decrement()
            record(request, context, response.status, since: start)
            return response
        } catch {
            metrics.inFlight.decrement()
            record(request, context, (error as? any HTTPResponseError)?.status ?? .internalServerError, since: start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, _ status: HTTPResponse.Status, since start: ContinuousClock.Instant) {
        let key = RequestSeries(endpoint: context.endpointPath, method: request.method, statusClass: status.code / 100)
        let (count, timer) = series.metrics(for: key, metrics).pair
        count.increment()
        timer.record(duration: ContinuousClock.now - start)
        if status == .tooManyRequests {
            metrics.rateLimited(key.route == "/v1/auth/login" ? "login" : (context.note.account == nil ? "anonymous" : "account"))
        }
    }

    /// The matched pattern, or one name for every path no route matched.
    static func route(_ endpoint: String?) -> String {
        guard let endpoint, endpoint != "NotFound" else { return "unmatched" }
        return endpoint.hasPrefix("/") ? endpoint : "/" + endpoint
    }
}

/// One label set of the request metrics, as the request gives it.
struct RequestSeries: Hashable {
    let endpoint: String?
    let method: HTTPRequest.Method
    let statusClass: Int

    var route: String { RequestMetricsMiddleware.route(endpoint) }
}

/// The counter and histogram per label set, made once each: a metric's creation takes the
/// registry's lock and builds its label text, which no request should pay again.
final class RequestSeriesTable: Sendable {
    private let table = Mutex<[RequestSeries: RequestMetrics]>([:])

    func metrics(for key: RequestSeries, _ metrics: ServiceMetrics) -> RequestMetrics {
        if let found = table.withLock({ $0[key] }) { return found }
        let made = RequestMetrics(metrics: metrics, dimensions: [("route", key.route), ("method", key.method.rawValue), ("status_class", "\(key.statusClass)xx")])
        return table.withLock { t in
            if let raced = t[key] { return raced }
            t[key] = made
            return made
        }
    }
}

/// The counter and histogram of one label set.
final class RequestMetrics: Sendable {
    let pair: (CoreMetrics.Counter, CoreMetrics.Timer)

    init(metrics: ServiceMetrics, dimensions: [(String, String)]) {
        pair = (CoreMetrics.Counter(label: "geoserve_http_requests_total", dimensions: dimensions, factory: metrics.factory),
                CoreMetrics.Timer(label: "geoserve_http_request_duration_seconds", dimensions: dimensions, factory: metrics.factory))
    }
}
