import CoreMetrics
import DomainKernel
import Foundation
import Prometheus
import ReportVerification
import Storage
import Synchronization

/// The service's own numbers for Prometheus: requests, intake, verification, tiles, caches,
/// the store. Recorded through swift-metrics with a factory of this instance's own registry, so
/// each application (and each test) counts alone and nothing needs a process-wide bootstrap.
///
/// Nothing here is per area, per report or per account: a count of one hall's reports could
/// reveal a small cell that disclosure control withholds, so such counts are never metrics.
package final class ServiceMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    /// Read just before each scrape: values that live elsewhere (the data version, the caches'
    /// counts and sizes, readiness), so the hot paths never touch a metric for them.
    private let samplers = Mutex<[@Sendable () -> Void]>([])
    private let labelled = Mutex<[String: AnyObject]>([:])

    let inFlight: Meter
    let intakeBatchSize: Recorder
    let intakeCommit: CoreMetrics.Timer

    package init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Verification takes minutes to days; intake commits take milliseconds.
        factory.durationHistogramBuckets["geoserve_verification_latency_seconds"] =
            [.seconds(60), .seconds(600), .seconds(3_600), .seconds(6 * 3_600), .seconds(86_400), .seconds(3 * 86_400), .seconds(7 * 86_400), .seconds(14 * 86_400)]
        factory.durationHistogramBuckets["geoserve_intake_commit_seconds"] =
            [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1)]
        factory.durationHistogramBuckets["geoserve_store_call_seconds"] =
            [.microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(2), .seconds(10)]
        factory.valueHistogramBuckets["geoserve_intake_batch_size"] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
        self.factory = factory
        inFlight = Meter(label: "geoserve_http_requests_in_flight", factory: factory)
        intakeBatchSize = Recorder(label: "geoserve_intake_batch_size", factory: factory)
        intakeCommit = CoreMetrics.Timer(label: "geoserve_intake_commit_seconds", factory: factory)
        CoreMetrics.Gauge(label: "geoserve_build_info", dimensions: [("version", GeoserveVersion.current)], factory: factory).record(1)
        // Every counter whose labels are known in advance exists from the start, at 0: an absent
        // series reads as "no data" in a rate or an alert rule, not as "none happened".
        for kind in ReportKind.allCases { _ = receivedCounter(kind) }
        _ = decidedCounter
        for ok in [true, false] { _ = webhookCounter(ok) }
        for limit in ["anonymous", "account", "login"] { _ = limitedCounter(limit) }
        webhookBacklog(events: 0, oldestFailingSeconds: 0)
    }

    /// A metric per label set, made once: creating one takes the registry's lock and a lookup,
    /// which the request path should not pay each time.
    func cached<M: AnyObject & Sendable>(_ key: String, _ make: () -> M) -> M {
        labelled.withLock { table in
            if let existing = table[key] as? M { return existing }
            let made = make()
            table[key] = made
            return made
        }
    }

    /// Registers a gauge's source, read at every scrape.
    func sample(_ label: String, dimensions: [(String, String)] = [], _ value: @escaping @Sendable () -> Double) {
        let gauge = CoreMetrics.Gauge(label: label, dimensions: dimensions, factory: factory)
        samplers.withLock { $0.append { gauge.record(value()) } }
    }

    /// Registers a counter kept elsewhere as a running total (a cache's hits): at each scrape
    /// the counter moves by what the total grew since the last one, so the hot path pays nothing.
    func sampleCounter(_ label: String, dimensions: [(String, String)] = [], _ total: @escaping @Sendable () -> Int) {
        let counter = CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
        let last = Mutex(0)
        samplers.withLock {
            $0.append {
                let now = total()
                let delta = last.withLock { seen in
                    defer { seen = max(seen, now) }
                    return max(0, now - seen)
                }
                if delta > 0 { counter.increment(by: delta) }
            }
        }
    }

    /// The registry in Prometheus's text format (version 0.0.4).
    func exposition() -> [UInt8] {
        for sampler in samplers.withLock({ $0 }) { sampler() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(16 << 10)
        registry.emit(into: &buffer)
        return MetricHelp.adding(to: buffer)
    }

    // MARK: Reports

    func reportReceived(_ kind: ReportKind) {
        receivedCounter(kind).increment()
    }

    private func receivedCounter(_ kind: ReportKind) -> CoreMetrics.Counter {
        cached("received|\(kind.rawValue)") { CoreMetrics.Counter(label: "geoserve_reports_received_total", dimensions: [("kind", kind.rawValue)], factory: factory) }
    }

    /// A verifier's decision on `report` (as it was submitted); verify and reject also give the
    /// verification latency, submitted to decided. Reopening and withdrawing are not decisions.
    ///
    /// Neither says which decision or which kind: a live count of COVID verifications, set
    /// against the published totals, would tell the sum of the ledger's unreleased carries
    /// between publications, which is exactly what publications hold back. Counted together
    /// with rejections (which nothing public counts), decisions tell how busy the verifiers
    /// are and not how many reports were verified.
    func reportDecided(_ report: ReportRecord, _ transition: ReportTransition) {
        switch transition {
        case .verify, .reject, .revoke: break
        case .reopen, .withdraw: return
        }
        decidedCounter.increment()
        guard transition != .revoke else { return }
        let seconds = max(0, Date().timeIntervalSince(report.submittedAt))
        cached("latency") { CoreMetrics.Timer(label: "geoserve_verification_latency_seconds", factory: factory) }.recordNanoseconds(Int64(seconds * 1e9))
    }

    private var decidedCounter: CoreMetrics.Counter {
        cached("decided") { CoreMetrics.Counter(label: "geoserve_reports_decided_total", factory: factory) }
    }

    // MARK: Notifications

    /// One webhook delivery attempt to one endpoint.
    func webhookDelivered(_ ok: Bool) {
        webhookCounter(ok).increment()
    }

    private func webhookCounter(_ ok: Bool) -> CoreMetrics.Counter {
        let result = ok ? "delivered" : "failed"
        return cached("webhook|\(result)") { CoreMetrics.Counter(label: "geoserve_webhook_deliveries_total", dimensions: [("result", result)], factory: factory) }
    }

    /// The outbox as the dispatcher last counted it: events not yet delivered everywhere, and how
    /// long the oldest that has failed has waited (0 when none has).
    func webhookBacklog(events: Int, oldestFailingSeconds: Double) {
        cached("webhook_backlog") { CoreMetrics.Gauge(label: "geoserve_webhook_backlog", factory: factory) }.record(Double(events))
        cached("webhook_oldest") { CoreMetrics.Gauge(label: "geoserve_webhook_oldest_failing_seconds", factory: factory) }.record(oldestFailingSeconds)
    }

    // MARK: Limits

    func rateLimited(_ limit: String) {
        limitedCounter(limit).increment()
    }

    private func limitedCounter(_ limit: String) -> CoreMetrics.Counter {
        cached("limited|\(limit)") { CoreMetrics.Counter(label: "geoserve_rate_limited_total", dimensions: [("limit", limit)], factory: factory) }
    }
}

extension ServiceMetrics: StoreObserver {
    package func storeCall(_ operation: String, duration: Duration, failed: Bool) {
        cached("store|\(operation)") { CoreMetrics.Timer(label: "geoserve_store_call_seconds", dimensions: [("operation", operation)], factory: factory) }
            .record(duration: duration)
        if failed { storeError(operation) }
    }

    package func intakeBatch(size: Int, duration: Duration, failed: Bool) {
        intakeBatchSize.record(size)
        intakeCommit.record(duration: duration)
        if failed { storeError("intake commit") }
    }

    private func storeError(_ operation: String) {
        cached("storeError|\(operation)") { CoreMetrics.Counter(label: "geoserve_store_errors_total", dimensions: [("operation", operation)], factory: factory) }
            .increment()
    }
}

extension CoreMetrics.Timer {
    func record(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
