import Dispatch
import Foundation
import Synchronization

/// Where bcrypt runs: on at most one thread per core, with a bounded queue behind them.
///
/// bcrypt is slow on purpose (a quarter second a hash at cost 12). Run on threads without a
/// bound, 16 failed logins at once took both cores and pushed public GET latency from 1.5 ms to
/// over a second. Bounded, the rest of the service keeps a share of the machine, and logins
/// beyond the queue are refused at once (`CredentialsBusy`) instead of waiting for seconds.
final class BcryptWorkers: Sendable {
    static let shared = BcryptWorkers(threads: max(1, ProcessInfo.processInfo.activeProcessorCount - 1),
                                      queued: 8 * ProcessInfo.processInfo.activeProcessorCount)

    /// Hashes running or waiting.
    private let inFlight = Mutex(0)
    private let limit: Int
    private let threads: DispatchSemaphore
    private let queue = DispatchQueue(label: "geoserve.bcrypt", attributes: .concurrent)

    /// - Parameters:
    ///   - threads: bcrypt runs at once (one core is left to everything else, on machines with two or more).
    ///   - queued: more that may wait for a thread before `run` refuses.
    init(threads: Int, queued: Int) {
        self.threads = DispatchSemaphore(value: threads)
        limit = threads + queued
    }

    /// Runs `work` on a bcrypt thread; with `refusingWhenFull`, throws `CredentialsBusy` at
    /// once when the queue is full, else waits its turn.
    func run<T: Sendable>(refusingWhenFull: Bool, _ work: @escaping @Sendable () -> T) async throws -> T {
        let admitted = inFlight.withLock { n in
            guard !refusingWhenFull || n < limit else { return false }
            n += 1
            return true
        }
        guard admitted else { throw CredentialsBusy() }
        defer { inFlight.withLock { $0 -= 1 } }
        return await withCheckedContinuation { c in
            queue.async { [threads] in
                threads.wait()
                let result = work()
                threads.signal()
                c.resume(returning: result)
            }
        }
    }
}

/// Every bcrypt thread is busy and the queue behind them full: answered `503 busy`.
struct CredentialsBusy: Error {}
