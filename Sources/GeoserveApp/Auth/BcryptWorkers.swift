import Dispatch
import Foundation
import Synchronization

/// Where bcrypt runs: on at most one thread per core, with a bounded queue behind them.
///
/// bcrypt is slow on purpose (a quarter second a hash at cost 12). Run on threads without a
/// bound, 16 failed logins at once took both cores and pushed public GET latency from 1.5 ms to
/// over a second. Bounded, the rest of the service keeps a share of the machine, and logins
/// beyond the queue are refused at once (`CredentialsBusy`) instead of waiting for seconds.
package final class BcryptWorkers: Sendable {
    static let shared = BcryptWorkers(threads: max(1, ProcessInfo.processInfo.activeProcessorCount - 1),
                                      queued: 8 * ProcessInfo.processInfo.activeProcessorCount)

    /// Hashes running or waiting, and which lane the next one takes.
    private let state = Mutex((inFlight: 0, next: 0))
    private let limit: Int
    /// One serial queue a thread. Serial queues run on libdispatch's overcommitting threads; a
    /// concurrent queue would run on the same default pool that Swift's tasks run on (on Linux),
    /// and busy bcrypt there starved every request, /healthz included, to a few a second.
    private let lanes: [DispatchQueue]

    /// - Parameters:
    ///   - threads: bcrypt runs at once (one core is left to everything else, on machines with two or more).
    ///   - queued: more that may wait for a thread before `run` refuses.
    init(threads: Int, queued: Int) {
        lanes = (0..<max(1, threads)).map { DispatchQueue(label: "geoserve.bcrypt.\($0)") }
        limit = max(1, threads) + queued
    }

    /// Runs `work` on a bcrypt thread, waiting its turn however long the queue.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await run(on: admit(refusingWhenFull: false)!, work)
    }

    /// Runs `work` on a bcrypt thread; throws `CredentialsBusy` at once when the queue is full.
    func tryRun<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        guard let lane = admit(refusingWhenFull: true) else { throw CredentialsBusy() }
        return await run(on: lane, work)
    }

    /// Counts the work in and picks its lane; nil when refusing and the queue is full.
    private func admit(refusingWhenFull: Bool) -> Int? {
        state.withLock { s in
            guard !refusingWhenFull || s.inFlight < limit else { return nil }
            s.inFlight += 1
            s.next = (s.next + 1) % lanes.count
            return s.next
        }
    }

    private func run<T: Sendable>(on lane: Int, _ work: @escaping @Sendable () -> T) async -> T {
        defer { state.withLock { $0.inFlight -= 1 } }
        return await withCheckedContinuation { c in
            lanes[lane].async { c.resume(returning: work()) }
        }
    }
}

/// Every bcrypt thread is busy and the queue behind them full: answered `503 busy`.
struct CredentialsBusy: Error {}
