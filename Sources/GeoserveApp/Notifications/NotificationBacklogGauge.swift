import Foundation
import Logging
import ServiceLifecycle
import Storage

/// Keeps the webhook backlog gauges (`geoserve_webhook_backlog`, the oldest failing event's age)
/// from the outbox, in every serving process. They were set by the sender alone, so a process
/// that sends nothing — a drill copy, or production brought back as one — read 0 with 7 events
/// waiting, and the documented backlog alert could not fire.
struct NotificationBacklogGauge: Service {
    let outbox: any NotificationOutbox
    let metrics: ServiceMetrics
    let logger: Logger
    /// How often the gauges are brought up to date: a count of the outbox's waiting rows each time.
    var interval: Duration = .seconds(10)

    func run() async throws {
        // Its wait ends with a stop: a loop that looked for the stop between waits of 10 s held
        // every stop of the process for up to 10 s.
        await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                do {
                    try await update(now: Date())
                } catch {
                    logger.warning("the notification outbox could not be counted", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// The gauges now: an endpoint that never answers shows as a failing age that only grows.
    func update(now: Date) async throws {
        let events = try await outbox.notificationBacklog()
        let oldest = try await outbox.failingNotifications(limit: 1).first
        metrics.webhookBacklog(events: events, oldestFailingSeconds: oldest.map { max(0, now.timeIntervalSince($0.at)) } ?? 0)
    }
}
