import Foundation
import Storage
import Synchronization

extension PostgresStore {
    /// Adds a submission to the next group commit, starting a drain unless one runs.
    func enqueue(_ job: IntakeJob) {
        if intake.withLock({ $0.add(job) }) { Task { await drain() } }
    }

    /// Group commit: every submission that arrived while the previous batch was committing goes
    /// into one transaction, one writer lock and one WAL flush. A process thus commits many
    /// reports per flush, where one commit per report would be bound by the flush rate.
    private func drain() async {
        while true {
            let jobs = intake.withLock { $0.takeBatch() }
            guard !jobs.isEmpty else { return }
            await commit(jobs)
        }
    }

    /// Commits a batch and answers each submission. When a statement fails for one submission
    /// (a constraint), the whole transaction is void: each submission then runs alone, so only
    /// the bad one fails. Nothing is answered before its commit returned.
    private func commit(_ jobs: [IntakeJob]) async {
        let zone = timeZone
        do {
            let results = try await pool.transaction("store submissions") { db in
                try Self.lockWriter(db)
                var audit = try Self.auditTail(db)
                var counters = CounterChanges(zone: zone)
                var results: [Result<SubmissionOutcome, any Error>] = []
                results.reserveCapacity(jobs.count)
                for job in jobs {
                    do {
                        let outcome = try Self.store(job, db, audit: &audit)
                        if case .created(let r) = outcome { counters.add(from: nil, to: r) }
                        results.append(.success(outcome))
                    } catch let error as PostgresError {
                        throw error
                    } catch {
                        // A refusal before the submission's first write: nothing to undo.
                        results.append(.failure(error))
                    }
                }
                try Self.writeCounters(counters, db)
                return results
            }
            for (job, result) in zip(jobs, results) { job.continuation.resume(with: result) }
        } catch StorageError.unavailable(let why) {
            for job in jobs { job.continuation.resume(throwing: StorageError.unavailable(why)) }
        } catch {
            guard jobs.count > 1 else {
                jobs.first?.continuation.resume(throwing: error)
                return
            }
            for job in jobs { await commit([job]) }
        }
    }
}
