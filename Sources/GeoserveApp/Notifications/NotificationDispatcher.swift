import Foundation
import Logging
import ServiceLifecycle
import Storage
import Support

/// Delivers the outbox's status notifications to the configured webhooks, signed, at least once:
/// an event stays in the outbox until every endpoint answered 2xx, and is tried again after a
/// failure with a growing wait (5 s doubling to an hour, each ×0.8–1.2), for as long as it takes. Every
/// process but a drill copy's runs one; the outbox's leases keep them from sending one event at
/// once. The backlog gauges are kept apart (`NotificationBacklogGauge`), by every process.
struct NotificationDispatcher: Service, RedactedDescription {
    let outbox: any NotificationOutbox
    let configuration: WebhookConfiguration
    let metrics: ServiceMetrics
    let logger: Logger
    /// How often the outbox is looked at.
    var interval: Duration = .seconds(1)
    /// How long a claimed event is this process's.
    var lease: TimeInterval = 60
    /// How long done events are kept.
    var keep: TimeInterval = 7 * 86_400

    func run() async throws {
        let client = WebhookClient(timeout: configuration.timeout, allowsLocal: configuration.allowsLocal)
        var lastPrune = Date.distantPast
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                let now = Date()
                if configuration.endpoints.isEmpty {
                    try await outbox.completeAllNotifications(at: now)
                } else {
                    try await deliverDue(client, now: now)
                }
                if now.timeIntervalSince(lastPrune) > 3600 {
                    try await outbox.pruneNotifications(doneBefore: now.addingTimeInterval(-keep))
                    lastPrune = now
                }
            } catch {
                logger.warning("the notification outbox could not be read", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// Claims what is due and sends each event to the endpoints it has not reached.
    func deliverDue(_ client: WebhookClient, now: Date) async throws {
        let events = try await outbox.claimNotifications(now: now, lease: lease, limit: 50)
        for event in events {
            let body = StatusNotification(event).json
            var failures: [String] = []
            for endpoint in configuration.endpoints where !event.deliveredTo.contains(endpoint.key) {
                let signature = WebhookSignature.sign(body: body, secret: endpoint.secret, at: Date())
                switch await client.post(body, to: endpoint.url, eventID: event.id, signature: signature) {
                case .delivered:
                    try await outbox.recordDelivery(eventID: event.id, endpoint: endpoint.key, at: Date())
                    metrics.webhookDelivered(true)
                case .failed(let why):
                    failures.append("\(endpoint.host): \(why)")
                    metrics.webhookDelivered(false)
                }
            }
            if failures.isEmpty {
                try await outbox.completeNotification(eventID: event.id, at: Date())
            } else {
                let wait = configuration.retryDelay(afterFailures: event.attempts + 1)
                let reason = failures.joined(separator: "; ")
                try await outbox.retryNotification(eventID: event.id, nextAttempt: Date().addingTimeInterval(wait), error: reason)
                logger.warning("status notification not delivered; trying again", metadata: [
                    "event": "\(event.id)", "attempt": .stringConvertible(event.attempts + 1), "retry_in_seconds": .stringConvertible(Int(wait)), "error": "\(reason)",
                ])
            }
        }
    }
}
