import Synchronization

/// Whether this process wants new traffic. Turned off when a stop begins, before the server
/// stops accepting, so `/readyz` tells a load balancer to send requests elsewhere while the
/// requests in flight finish.
package final class Readiness: Sendable {
    private let began = Mutex<ContinuousClock.Instant?>(nil)

    package init() {}

    /// When the stop began; nil while serving.
    package var stopBegan: ContinuousClock.Instant? { began.withLock { $0 } }

    var isDraining: Bool { stopBegan != nil }

    func drain() {
        began.withLock { $0 = $0 ?? .now }
    }
}
