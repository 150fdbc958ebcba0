import Logging
import ServiceLifecycle

/// The first service to hear of a stop (it is last in the group, and a group stops its services
/// in reverse order): it marks the process as draining, so `/readyz` answers 503, and keeps the
/// server serving for `delay` so that a load balancer's health check notices before connections
/// are refused. Then the server stops accepting and finishes what is in flight.
package struct DrainService: Service {
    let readiness: Readiness
    let delay: Duration
    let logger: Logger

    package init(readiness: Readiness, delay: Duration, logger: Logger) {
        self.readiness = readiness
        self.delay = delay
        self.logger = logger
    }

    package func run() async throws {
        // Waits for the stop; a cancellation (the grace ran out) ends it too.
        try? await gracefulShutdown()
        readiness.drain()
        logger.notice("stopping: /readyz answers draining", metadata: ["drain_seconds": .stringConvertible(delay.components.seconds)])
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}
