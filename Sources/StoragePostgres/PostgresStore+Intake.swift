import DomainKernel
import Foundation
import Storage
import Synchronization

extension PostgresStore {
    /// Adds a submission to the next group commit, starting a drain unless one runs.
    func enqueue(_ job: IntakeJob) {
        let queued = QueuedSubmission(job, zone: timeZone)
        if intake.withLock({ $0.add(queued) }) { Task { await drain() } }
    }

    /// Group commit: every submission that arrived while the previous batch was committing, or
    /// while this process waited for the writer lock, goes into one transaction and one WAL
    /// flush. A process thus commits many reports per flush, where one commit per report would
    /// be bound by the flush rate.
    private func drain() async {
        while intake.withLock({ $0.keepDraining() }) {
            await commit(LateBatch { [self] in intake.withLock { $0.takeBatch() } })
        }
    }

    /// Commits a batch and answers each submission. When a statement fails for one submission
    /// (a constraint), the whole transaction is void: each submission then runs alone, so only
    /// the bad one fails. Nothing is answered before its commit returned.
    private func commit(_ batch: LateBatch) async {
        let zone = timeZone
        let start = ContinuousClock.now
        do {
            // storeBatch opens and commits its transaction itself, in pipelines.
            let results = try await pool.run("store submissions") { db in
                try Self.storeBatch(batch, zone: zone, db)
            }
            let jobs = batch.jobs
            pool.configuration.observer?.intakeBatch(size: jobs.count, duration: ContinuousClock.now - start, failed: false)
            for (queued, result) in zip(jobs, results) { queued.job.continuation.resume(with: result) }
        } catch StorageError.unavailable(let why) {
            // Taken now if the database could not be reached before the writer lock.
            let jobs = batch.jobs
            pool.configuration.observer?.intakeBatch(size: jobs.count, duration: ContinuousClock.now - start, failed: true)
            for queued in jobs { queued.job.continuation.resume(throwing: StorageError.unavailable(why)) }
        } catch {
            let jobs = batch.jobs
            guard jobs.count > 1 else {
                jobs.first?.job.continuation.resume(throwing: error)
                return
            }
            for job in jobs { await commit(LateBatch([job])) }
        }
    }

    /// Stores a batch in one transaction of at most three round trips, whatever its size (libpq
    /// pipelines). The writer lock comes first and the batch second: the submissions are taken
    /// from the queue only once the lock is held, so while another process commits, this one's
    /// next batch keeps growing instead of waiting, already formed, for its turn. (Taking the
    /// lock late, after a batch's reports were written, let two processes' batches overlap but
    /// halved each process's batch: the same reports then took twice the commits.)
    /// 1. `BEGIN`, the writer lock, the audit chain's tail and each area layer's published version
    ///    (a report placed in others is refused, `ReportSubmission.checkPlacement`).
    /// 2. Only when some submission needs one of them: the keys already used and the reporters'
    ///    recent reports.
    /// 3. The reports, their areas, the audit entries, the counter changes and the commit.
    /// Each submission is decided in arrival order exactly as if it were stored alone: a key used
    /// earlier in the batch replays that report, and a report accepted earlier counts for the
    /// 14-day rule of the same reporter's later ones. Across batches and processes the writer
    /// lock orders both rules, since every writer of reports holds it while it reads and writes.
    ///
    /// A connection lost before the commit was sent rolled everything back (`lostBeforeCommit`,
    /// run again by the pool with the same batch); lost after, the outcome is unknown and the
    /// batch is answered 503.
    static func storeBatch(_ batch: LateBatch, zone: TimeZone, _ db: PostgresConnection) throws -> [Result<SubmissionOutcome, any Error>] {
        var committing = false
        do {
            return try storeBatch(batch, zone: zone, db, committing: &committing)
        } catch let error as PostgresError {
            if !db.isBroken, db.isInTransaction { try? db.execute("ROLLBACK") }
            if error.isConnectionLost { throw committing ? PostgresError.commitOutcomeUnknown : error.lostBeforeCommit() }
            throw error
        } catch {
            if !db.isBroken, db.isInTransaction { try? db.execute("ROLLBACK") }
            throw error
        }
    }

    private static func storeBatch(_ batch: LateBatch, zone: TimeZone, _ db: PostgresConnection,
                                   committing: inout Bool) throws -> [Result<SubmissionOutcome, any Error>] {
        func keyOf(_ scope: String, _ key: String) -> String { scope + "\u{0}" + key }
        func priorOf(_ reporter: String, _ kind: ReportKind) -> String { reporter + "\u{0}" + kind.rawValue }

        let opened = try db.pipeline([PipelineStatement("BEGIN"), PipelineStatement(lockWriter), PipelineStatement(auditTailSQL),
                                      PipelineStatement(StalePlacement.publishedVersionsSQL)])
        var audit = auditTail(opened[2], db)
        let published = publishedAreaVersions(opened[3])
        // Under the writer lock from here to the commit.
        let jobs = batch.jobs
        let reporters = Set(jobs.compactMap { $0.job.submission.record.reporterID }).sorted()
        let keyed = jobs.compactMap { q in q.job.submission.idempotencyKey.map { (q.job.submission.idempotencyScope, $0) } }
        var reads: [PipelineStatement] = []
        if !keyed.isEmpty {
            reads.append(PipelineStatement("""
                SELECT \(reportColumns), idempotency_scope, idempotency_key, idempotency_request FROM reports
                WHERE (idempotency_scope, idempotency_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
                """, [.textArray(keyed.map(\.0)), .textArray(keyed.map(\.1))]))
        }
        if !reporters.isEmpty {
            reads.append(PipelineStatement("""
                SELECT reporter_id, kind, id, submitted_at, status FROM (
                    SELECT reporter_id, kind, id, submitted_at, status,
                           row_number() OVER (PARTITION BY reporter_id, kind ORDER BY submitted_at DESC) AS n
                    FROM reports WHERE reporter_id = ANY($1::text[])
                ) AS latest WHERE n <= 50 ORDER BY reporter_id, kind, submitted_at DESC
                """, [.textArray(reporters)]))
        }
        var read = reads.isEmpty ? [] : try db.pipeline(reads)[...]

        // What each key was used for: the report and the digest of the request that carried it.
        var used: [String: (record: ReportRecord, request: String?)] = [:]
        if !keyed.isEmpty, let found = read.popFirst() {
            for (i, record) in try readReports(found, db).enumerated() {
                used[keyOf(found.string(i, reportColumnCount), found.string(i, reportColumnCount + 1))] = (record, found.text(i, reportColumnCount + 2))
            }
        }
        var prior: [String: [PriorReport]] = [:]
        if !reporters.isEmpty, let recent = read.popFirst() {
            for i in 0..<recent.count {
                prior[priorOf(recent.string(i, 0), try recent.reportKind(i, 1)), default: []]
                    .append(PriorReport(id: recent.string(i, 2), submittedAt: try Timestamp.parse(recent.string(i, 3)), status: try recent.reportStatus(i, 4) ?? .pending))
            }
        }

        var accepted: [QueuedSubmission] = []
        var results: [Result<SubmissionOutcome, any Error>] = []
        results.reserveCapacity(jobs.count)
        for queued in jobs {
            let submission = queued.job.submission, r = submission.record
            let key = submission.idempotencyKey.map { keyOf(submission.idempotencyScope, $0) }
            if let key, let earlier = used[key] {
                do { results.append(.success(try submission.replay(of: earlier.record, request: earlier.request))) } catch {
                    results.append(.failure(error))
                }
                continue
            }
            // Before the 14-day rule, which counts an accepted report for the reporter's next ones.
            do { try submission.checkPlacement(published: published) } catch {
                results.append(.failure(error))
                continue
            }
            if let reporter = r.reporterID {
                do { try submission.checkResubmission(after: prior[priorOf(reporter, r.kind)] ?? []) } catch {
                    results.append(.failure(error))
                    continue
                }
                prior[priorOf(reporter, r.kind), default: []].insert(PriorReport(id: r.id, submittedAt: r.submittedAt, status: r.status), at: 0)
            }
            if let key { used[key] = (r, submission.requestDigest) }
            accepted.append(queued)
            results.append(.success(.created(r)))
        }
        guard !accepted.isEmpty else {
            try db.execute("ROLLBACK")
            return results
        }
        // The reports and their areas in one statement (data-modifying CTEs all run, whatever the
        // final statement reads), from the rows encoded when each submission was queued.
        let areaRows = accepted.flatMap(\.areaRows)
        let insertReports = PipelineStatement("""
            WITH new_reports AS (
                INSERT INTO reports (id, kind, status, version, reporter_id, idempotency_scope, idempotency_key, idempotency_request,
                                     occurred_on, submitted_at, updated_at, lon, lat, payload, group_key)
                SELECT id, kind, status, version::integer, reporter_id, scope, key, request, occurred_on, submitted_at, submitted_at,
                       lon::double precision, lat::double precision, payload, group_key
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                            $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
                     AS t (id, kind, status, version, reporter_id, scope, key, occurred_on, submitted_at, lon, lat, payload, group_key, request)
            )
            INSERT INTO report_areas (report_id, layer, layer_version, area_id)
            SELECT report_id, layer, layer_version::integer, area_id FROM unnest($15::text[], $16::text[], $17::text[], $18::text[])
                 AS t (report_id, layer, layer_version, area_id)
            """, (0..<QueuedSubmission.reportColumnCount).map { c in .text(TextArray.literal(accepted.lazy.map { $0.reportColumns[c] })) }
                + (0..<4).map { c in .text(TextArray.literal(areaRows.lazy.map { $0[c] })) })
        let fields = accepted.map(\.audit)
        var counters = CounterChanges(zone: zone)
        for queued in accepted { counters.add(queued.counters) }
        let cells = counters.nonZero
        let unlinked: [PostgresValue] = [
            .textArray(fields.map(\.reportID)), .textArray(fields.map(\.actor)), .textArray(fields.map(\.at)), .textArray(fields.map(\.action)),
            .textArray(fields.map { $0.from?.rawValue }), .textArray(fields.map { $0.to?.rawValue }), .textArray(fields.map(\.reason)),
        ] + counterKeyArrays(cells) + [.textArray(cells.map { String($0.change) })]

        var links: [AuditTail] = []
        links.reserveCapacity(fields.count)
        for entry in fields {
            audit = audit.next(entry)
            links.append(audit)
        }
        let writeAudit = PipelineStatement("""
            WITH new_audit AS (
                INSERT INTO audit (sequence, report_id, actor, at, action, from_status, to_status, reason, hash)
                SELECT sequence::bigint, report_id, actor, at, action, from_status, to_status, reason, hash
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
                     AS t (report_id, actor, at, action, from_status, to_status, reason, sequence, hash)
            )
            INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n, data_version)
            SELECT layer, basis, area_id, day, kind, status, grp, n::bigint, \(currentVersionSQL)
            FROM unnest($10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[])
                 AS t (layer, basis, area_id, day, kind, status, grp, n)
            ON CONFLICT (layer, basis, area_id, day, kind, status, grp) DO UPDATE SET n = counters.n + excluded.n, data_version = excluded.data_version
            """, Array(unlinked[0..<7]) + [.textArray(links.map { String($0.sequence) }), .textArray(links.map(\.hash))] + unlinked[7...])
        committing = true
        _ = try db.pipeline([insertReports, writeAudit, PipelineStatement("COMMIT")])
        return results
    }
}
