import Aggregation
import DomainKernel
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
        let start = ContinuousClock.now
        do {
            // The writer lock is taken with BEGIN, in the same round trip.
            let results = try await pool.writeTransaction("store submissions") { db in
                try Self.storeBatch(jobs, zone: zone, db)
            }
            pool.configuration.observer?.intakeBatch(size: jobs.count, duration: ContinuousClock.now - start, failed: false)
            for (job, result) in zip(jobs, results) { job.continuation.resume(with: result) }
        } catch StorageError.unavailable(let why) {
            pool.configuration.observer?.intakeBatch(size: jobs.count, duration: ContinuousClock.now - start, failed: true)
            for job in jobs { job.continuation.resume(throwing: StorageError.unavailable(why)) }
        } catch {
            guard jobs.count > 1 else {
                jobs.first?.continuation.resume(throwing: error)
                return
            }
            for job in jobs { await commit([job]) }
        }
    }

    /// Stores a batch under the writer lock in a fixed number of round trips, whatever its size:
    /// one read of the keys already used, one of the reporters' recent reports (each only when
    /// some submission needs it), one of the audit chain's tail, then one statement that writes
    /// every table. Each submission is decided in arrival order exactly as if it were
    /// stored alone: a key used earlier in the batch replays that report, and a report accepted
    /// earlier counts for the 14-day rule of the same reporter's later ones.
    static func storeBatch(_ jobs: [IntakeJob], zone: TimeZone, _ db: PostgresConnection) throws -> [Result<SubmissionOutcome, any Error>] {
        func keyOf(_ scope: String, _ key: String) -> String { scope + "\u{0}" + key }
        func priorOf(_ reporter: String, _ kind: ReportKind) -> String { reporter + "\u{0}" + kind.rawValue }

        // What each key was used for: the report and the digest of the request that carried it.
        var used: [String: (record: ReportRecord, request: String?)] = [:]
        let keyed = jobs.compactMap { j in j.submission.idempotencyKey.map { (j.submission.idempotencyScope, $0) } }
        if !keyed.isEmpty {
            let found = try db.query("""
                SELECT \(reportColumns), idempotency_scope, idempotency_key, idempotency_request FROM reports
                WHERE (idempotency_scope, idempotency_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
                """, [.textArray(keyed.map(\.0)), .textArray(keyed.map(\.1))])
            for (i, record) in try readReports(found, db).enumerated() {
                used[keyOf(found.string(i, reportColumnCount), found.string(i, reportColumnCount + 1))] = (record, found.text(i, reportColumnCount + 2))
            }
        }
        var prior: [String: [PriorReport]] = [:]
        let reporters = Set(jobs.compactMap { $0.submission.record.reporterID })
        if !reporters.isEmpty {
            let recent = try db.query("""
                SELECT reporter_id, kind, id, submitted_at, status FROM (
                    SELECT reporter_id, kind, id, submitted_at, status,
                           row_number() OVER (PARTITION BY reporter_id, kind ORDER BY submitted_at DESC) AS n
                    FROM reports WHERE reporter_id = ANY($1::text[])
                ) AS latest WHERE n <= 50 ORDER BY reporter_id, kind, submitted_at DESC
                """, [.textArray(reporters.sorted())])
            for i in 0..<recent.count {
                prior[priorOf(recent.string(i, 0), try recent.reportKind(i, 1)), default: []]
                    .append(PriorReport(id: recent.string(i, 2), submittedAt: Timestamp.parse(recent.string(i, 3)), status: try recent.reportStatus(i, 4) ?? .pending))
            }
        }

        var audit = try auditTail(db)
        var entries: [(AuditTail, AuditFields)] = []
        var accepted: [ReportRecord] = []
        var acceptedKeys: [String?] = []
        var acceptedRequests: [String?] = []
        var counters = CounterChanges(zone: zone)
        var results: [Result<SubmissionOutcome, any Error>] = []
        results.reserveCapacity(jobs.count)
        for job in jobs {
            let r = job.submission.record
            let key = job.submission.idempotencyKey.map { keyOf(job.submission.idempotencyScope, $0) }
            if let key, let earlier = used[key] {
                results.append(earlier.request == job.submission.requestDigest ? .success(.replayed(earlier.record)) : .failure(IdempotencyKeyReused()))
                continue
            }
            if let reporter = r.reporterID {
                do { try job.check(prior[priorOf(reporter, r.kind)] ?? []) } catch {
                    results.append(.failure(error))
                    continue
                }
                prior[priorOf(reporter, r.kind), default: []].insert(PriorReport(id: r.id, submittedAt: r.submittedAt, status: r.status), at: 0)
            }
            if let key { used[key] = (r, job.submission.requestDigest) }
            let fields = AuditFields(reportID: r.id, actor: r.reporterID ?? "anonymous", at: Timestamp.format(r.submittedAt), action: "submit", to: r.status)
            audit = audit.next(fields)
            entries.append((audit, fields))
            accepted.append(r)
            acceptedKeys.append(job.submission.idempotencyKey)
            acceptedRequests.append(job.submission.requestDigest)
            counters.add(from: nil, to: r)
            results.append(.success(.created(r)))
        }
        guard !accepted.isEmpty else { return results }

        // Every write of the batch in one statement, one round trip: data-modifying CTEs all run,
        // whatever the final statement reads.
        let areas = accepted.flatMap { r in r.areas.map { (r.id, $0) } }
        let cells = counters.nonZero
        try db.query("""
            WITH new_reports AS (
                INSERT INTO reports (id, kind, status, version, reporter_id, idempotency_scope, idempotency_key, idempotency_request,
                                     occurred_on, submitted_at, updated_at, lon, lat, payload, group_key)
                SELECT id, kind, status, version::integer, reporter_id, scope, key, request, occurred_on, submitted_at, submitted_at,
                       lon::double precision, lat::double precision, payload, group_key
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                            $10::text[], $11::text[], $12::text[], $13::text[], $35::text[])
                     AS t (id, kind, status, version, reporter_id, scope, key, occurred_on, submitted_at, lon, lat, payload, group_key, request)
            ), new_areas AS (
                INSERT INTO report_areas (report_id, layer, layer_version, area_id)
                SELECT report_id, layer, layer_version::integer, area_id FROM unnest($14::text[], $15::text[], $16::text[], $17::text[])
                     AS t (report_id, layer, layer_version, area_id)
            ), new_audit AS (
                INSERT INTO audit (sequence, report_id, actor, at, action, from_status, to_status, reason, hash)
                SELECT sequence::bigint, report_id, actor, at, action, from_status, to_status, reason, hash
                FROM unnest($18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::text[], $26::text[])
                     AS t (sequence, report_id, actor, at, action, from_status, to_status, reason, hash)
            )
            INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n, data_version)
            SELECT layer, basis, area_id, day, kind, status, grp, n::bigint, \(currentVersionSQL)
            FROM unnest($27::text[], $28::text[], $29::text[], $30::text[], $31::text[], $32::text[], $33::text[], $34::text[])
                 AS t (layer, basis, area_id, day, kind, status, grp, n)
            ON CONFLICT (layer, basis, area_id, day, kind, status, grp) DO UPDATE SET n = counters.n + excluded.n, data_version = excluded.data_version
            """, [.textArray(accepted.map(\.id)), .textArray(accepted.map(\.kind.rawValue)), .textArray(accepted.map(\.status.rawValue)),
                  .textArray(accepted.map { String($0.version) }), .textArray(accepted.map(\.reporterID)), .textArray(accepted.map { $0.reporterID ?? "anonymous" }),
                  .textArray(acceptedKeys),
                  .textArray(accepted.map(\.occurredOn.iso)), .textArray(accepted.map { Timestamp.format($0.submittedAt) }),
                  .textArray(accepted.map { $0.lon.map { "\($0)" } }), .textArray(accepted.map { $0.lat.map { "\($0)" } }),
                  .textArray(accepted.map { String(decoding: $0.payload, as: UTF8.self) }), .textArray(accepted.map(\.group)),
                  .textArray(areas.map(\.0)), .textArray(areas.map(\.1.layer)), .textArray(areas.map { String($0.1.layerVersion) }),
                  .textArray(areas.map(\.1.areaID)),
                  .textArray(entries.map { String($0.0.sequence) }), .textArray(entries.map(\.1.reportID)), .textArray(entries.map(\.1.actor)),
                  .textArray(entries.map(\.1.at)), .textArray(entries.map(\.1.action)), .textArray(entries.map { $0.1.from?.rawValue }),
                  .textArray(entries.map { $0.1.to?.rawValue }), .textArray(entries.map(\.1.reason)), .textArray(entries.map(\.0.hash)),
               ] + counterKeyArrays(cells) + [.textArray(cells.map { String($0.change) }), .textArray(acceptedRequests)])
        return results
    }
}
