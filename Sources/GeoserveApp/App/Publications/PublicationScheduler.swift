import DomainKernel
import Foundation
import Logging
import Storage
import ServiceLifecycle

/// Publishes at the schedule's times, and at start when a scheduled time passed while no
/// process was running. Every process runs one; the store's transaction and the slot check let
/// exactly one of them publish for each time.
struct PublicationScheduler: Service {
    let publisher: Publisher
    let schedule: PublicationSchedule
    let watcher: DataVersionWatcher
    let logger: Logger

    /// Publishes when the latest scheduled time has no publication at or after it.
    func catchUp(now: Date = Date()) async throws {
        guard let slot = schedule.lastSlot(atOrBefore: now, in: publisher.timeZone) else { return }
        if let latest = watcher.publications.latest, latest.publishedAt >= slot { return }
        if let made = try await publisher.publish(now: now, slot: slot) {
            logger.info("published", metadata: ["publication": .stringConvertible(made.id), "day": "\(made.day.iso)", "blocks": .stringConvertible(made.blocks)])
        }
        await watcher.noteCommit()
    }

    func run() async throws {
        // A service that returns ends the service group: without times there is nothing to do
        // but wait for the shutdown.
        guard !schedule.isNever else {
            try? await gracefulShutdown()
            return
        }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await catchUp()
            } catch {
                logger.warning("scheduled publication failed; retrying in a minute", metadata: ["error": "\(error)"])
            }
            // Wake at the next time, or within a minute: a clock change or a failed attempt is
            // caught up then.
            let now = Date()
            let next = schedule.nextSlot(after: now, in: publisher.timeZone) ?? now.addingTimeInterval(60)
            let wait = min(max(next.timeIntervalSince(now), 0.05), 60)
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
        }
    }
}
