import Aggregation
import DomainKernel
import Foundation
import ReportVerification
import Storage
import Testing

func record(_ id: String, reporter: String? = nil, kind: ReportKind = .covid, at: Date = Date()) -> ReportRecord {
    ReportRecord(id: id, kind: kind, status: .pending, version: 1, reporterID: reporter, submittedAt: at, updatedAt: at,
                 occurredOn: "2026-11-20", payload: Data(#"{"notes":"private"}"#.utf8), lon: -87.6, lat: 41.79,
                 areas: [AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H01"), AreaAssignment(layer: "zones", layerVersion: 1, areaID: "Z1")])
}


@Suite("report store")
struct ReportStoreTests {
    @Test("a submission is stored with its areas and reads back whole", arguments: StoreBackend.allCases)
    func submitAndRead(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let r = record("r1")
        let outcome = try await s.submit(ReportSubmission(record: r, idempotencyKey: nil))
        #expect(outcome == .created(r))
        let read = try await s.report(id: "r1")
        #expect(read?.areas == r.areas && read?.payload == r.payload && read?.lon == -87.6)
        #expect(read?.submittedAt.timeIntervalSince1970.rounded() == r.submittedAt.timeIntervalSince1970.rounded())
        #expect(try await s.report(id: "missing") == nil)
    }

    @Test("a retry with the same idempotency key returns the first report and stores nothing new", arguments: StoreBackend.allCases)
    func idempotent(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let account = try await s.createAccount(email: "r@campus.example", role: .reporter, passwordHash: "h")
        let first = try await s.submit(ReportSubmission(record: record("a", reporter: account.id), idempotencyKey: "k-1"))
        let retry = try await s.submit(ReportSubmission(record: record("b", reporter: account.id), idempotencyKey: "k-1"))
        #expect(first == .created(record("a", reporter: account.id)) || first.record.id == "a")
        #expect(retry.record.id == "a")
        if case .replayed = retry {} else { Issue.record("expected a replay") }
        #expect(try await s.report(id: "b") == nil)
        #expect(try await s.history(reportID: "a").count == 1)
    }

    @Test("a key used by a different request is refused and stores nothing; the same request still replays, also within one batch",
          arguments: StoreBackend.allCases)
    func keyBoundToRequest(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        _ = try await s.submit(ReportSubmission(record: record("a"), idempotencyKey: "k-1", requestDigest: "body-a"))
        await #expect(throws: IdempotencyKeyReused()) {
            try await s.submit(ReportSubmission(record: record("b"), idempotencyKey: "k-1", requestDigest: "body-b"))
        }
        #expect(try await s.report(id: "b") == nil)
        let retry = try await s.submit(ReportSubmission(record: record("c"), idempotencyKey: "k-1", requestDigest: "body-a"))
        #expect(retry == .replayed(try #require(try await s.report(id: "a"))))
        // Submissions racing with one new key: whichever is stored first wins; the same request
        // replays it and a different one is refused.
        let outcomes = await withTaskGroup(of: (Int, Result<SubmissionOutcome, any Error>).self) { group in
            for i in 0..<40 {
                group.addTask {
                    let sub = ReportSubmission(record: record("race\(i)"), idempotencyKey: "k-2", requestDigest: i % 2 == 0 ? "even" : "odd")
                    do { return (i, .success(try await s.submit(sub))) } catch { return (i, .failure(error)) }
                }
            }
            return await group.reduce(into: [(Int, Result<SubmissionOutcome, any Error>)]()) { $0.append($1) }
        }
        let created = outcomes.compactMap { i, r in if case .success(.created) = r { i } else { nil } }
        #expect(created.count == 1)
        let winner = try #require(created.first)
        for (i, r) in outcomes where i != winner {
            switch r {
            case .success(.replayed(let earlier)): #expect(i % 2 == winner % 2 && earlier.id == "race\(winner)")
            case .failure(let e): #expect(i % 2 != winner % 2 && e is IdempotencyKeyReused)
            default: Issue.record("submission \(i) was stored as well")
            }
        }
        #expect(try await s.verifyAuditChain() == nil)
    }

    @Test("concurrent submissions and retries are each stored exactly once; a refused one is rolled back alone", arguments: StoreBackend.allCases)
    func groupCommit(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let reporter = try await s.createAccount(email: "r@campus.example", role: .reporter, passwordHash: "h").id
        let recent = try await s.createAccount(email: "recent@campus.example", role: .reporter, passwordHash: "h").id
        _ = try await s.submit(ReportSubmission(record: record("earlier", reporter: recent), idempotencyKey: nil))
        // 250 distinct keys; calls 250..<300 are retries of keys 0..<50. Call 17 is a covid report
        // the 14-day rule refuses (its reporter reported just before); call 123 (a key nobody
        // retries) fails half-way through its writes: two areas in one layer break a key.
        let failures = await withTaskGroup(of: Int?.self) { group in
            for i in 0..<300 {
                group.addTask {
                    var r = i == 17 ? record("r17", reporter: recent) : record("r\(i)", reporter: reporter, kind: .misconduct)
                    if i == 123 { r.areas.append(AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H02")) }
                    let sub = ReportSubmission(record: r, idempotencyKey: "key-\(i % 250)")
                    do {
                        _ = try await s.submit(sub)
                        return nil
                    } catch { return i }
                }
            }
            var out: [Int] = []
            for await r in group { if let r { out.append(r) } }
            return out
        }
        #expect(Set(failures).subtracting([17]) == [123])
        var stored = 0
        for i in 0..<300 where try await s.report(id: "r\(i)") != nil { stored += 1 }
        #expect(stored == 249)
        #expect(try await s.report(id: "r17") == nil)
        #expect(try await s.report(id: "r123") == nil)
        #expect(try await s.history(reportID: "r123").isEmpty)
        #expect(try await s.verifyAuditChain() == nil)
        // The batch's summed counter changes hold the stored reports and nothing of the two that failed.
        #expect(try await s.checkCounters().isEmpty)
        let halls = try await s.counterSnapshot(layer: "halls", basis: .submitted).cells.reduce(0) { $0 + $1.1 }
        #expect(halls == 250)
    }

    @Test("anonymous, keyed and signed-in submissions at once through two stores each get their own report; a failing one is rolled back alone",
          arguments: StoreBackend.allCases)
    func mixedBatches(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let stores = [t.store, try t.reopen()]
        let reporter = try await t.store.createAccount(email: "r@campus.example", role: .reporter, passwordHash: "h").id
        // Of 240 calls through two stores: every third is keyed, every fifth signed in (misconduct,
        // which the 14-day rule lets through), the rest anonymous without a key; call 100, an
        // anonymous one, breaks a key with two areas in one layer.
        let answers = await withTaskGroup(of: (Int, String?).self) { group in
            for i in 0..<240 {
                group.addTask {
                    var r = i % 5 == 0 ? record("x\(i)", reporter: reporter, kind: .misconduct) : record("x\(i)")
                    if i == 100 { r.areas.append(AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H02")) }
                    let sub = ReportSubmission(record: r, idempotencyKey: i % 3 == 0 ? "key-\(i)" : nil)
                    guard case .created(let stored) = try? await stores[i % 2].submit(sub) else { return (i, nil) }
                    return (i, stored.id)
                }
            }
            var all: [Int: String?] = [:]
            for await (i, id) in group { all[i] = id }
            return all
        }
        for i in 0..<240 {
            #expect(answers[i, default: "no answer"] == (i == 100 ? nil : "x\(i)"), "call \(i)")
        }
        #expect(try await t.store.report(id: "x100") == nil)
        #expect(try await t.store.report(id: "x7")?.areas.count == 2)
        #expect(try await t.store.verifyAuditChain() == nil)
        #expect(try await t.store.checkCounters().isEmpty)
        #expect(try await t.store.counterSnapshot(layer: "halls", basis: .submitted).cells.reduce(0) { $0 + $1.1 } == 239)
    }

    @Test("one key sent at once through each of two stores (once, or four times each): every send gets the one stored report, none fails",
          arguments: StoreBackend.allCases)
    func concurrentRetries(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let stores = [t.store, try t.reopen()]
        for round in 0..<60 {
            // Two or eight sends: two meet as one-submission batches, one in each store, the race a
            // lost answer's retries make between two processes.
            let sends = round % 2 == 0 ? 2 : 8
            let answers = await withTaskGroup(of: SubmissionOutcome?.self) { group in
                for i in 0..<sends {
                    let store = stores[i % 2]
                    group.addTask {
                        try? await store.submit(ReportSubmission(record: record("r\(round)-\(i)"), idempotencyKey: "retry-\(round)", requestDigest: "body-\(round)"))
                    }
                }
                var all: [SubmissionOutcome?] = []
                for await answer in group { all.append(answer) }
                return all
            }
            let stored = answers.compactMap { $0 }
            try #require(stored.count == sends, "round \(round): \(sends - stored.count) send(s) failed")
            #expect(Set(stored.map(\.record.id)).count == 1, "round \(round)")
            #expect(stored.filter { if case .created = $0 { true } else { false } }.count == 1, "round \(round)")
        }
    }

    @Test("two stores on one database, as two processes: each key is stored once and replayed through the other, a reporter's one-report rule holds across both, and transitions running meanwhile leave the audit chain and counters clean",
          arguments: StoreBackend.allCases)
    func acrossProcesses(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let stores = [t.store, try t.reopen()]
        let reporter = try await t.store.createAccount(email: "r@campus.example", role: .reporter, passwordHash: "h").id
        for i in 0..<20 { _ = try await t.store.submit(ReportSubmission(record: record("v\(i)"), idempotencyKey: nil)) }
        let head = try await t.store.auditHead().sequence

        enum Outcome: Sendable { case submitted(key: Int, SubmissionOutcome?), ruled(stored: Bool), transitioned(Bool) }
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for i in 0..<60 {
                // Keys 0..<30, each sent twice, once through each store, with the same request.
                let store = stores[i % 2]
                group.addTask {
                    let sub = ReportSubmission(record: record("k\(i)"), idempotencyKey: "key-\(i % 30)", requestDigest: "body-\(i % 30)")
                    return .submitted(key: i % 30, try? await store.submit(sub))
                }
            }
            for i in 0..<20 {
                // At most one covid report of this reporter within 14 days.
                let store = stores[i % 2]
                group.addTask {
                    do {
                        _ = try await store.submit(ReportSubmission(record: record("m\(i)", reporter: reporter), idempotencyKey: nil))
                        return .ruled(stored: true)
                    } catch { return .ruled(stored: false) }
                }
                group.addTask {
                    .transitioned((try? await store.transition(reportID: "v\(i)", .verify, reason: nil, actor: "admin", expectedVersion: nil)) != nil)
                }
            }
            var all: [Outcome] = []
            for await o in group { all.append(o) }
            return all
        }
        var byKey: [Int: [SubmissionOutcome?]] = [:]
        var ruled = 0, transitioned = 0
        for o in outcomes {
            switch o {
            case .submitted(let key, let outcome): byKey[key, default: []].append(outcome)
            case .ruled(let stored): ruled += stored ? 1 : 0
            case .transitioned(let ok): transitioned += ok ? 1 : 0
            }
        }
        for key in 0..<30 {
            let both = try #require(byKey[key]).compactMap { $0 }
            try #require(both.count == 2, "key \(key): a submission failed")
            // One created, one replayed, both naming the one stored report.
            #expect(both.filter { if case .created = $0 { true } else { false } }.count == 1, "key \(key)")
            #expect(Set(both.map(\.record.id)).count == 1, "key \(key)")
            let stored = [try await t.store.report(id: "k\(key)"), try await t.store.report(id: "k\(key + 30)")].compactMap { $0 }
            #expect(stored.map(\.id) == [both[0].record.id], "key \(key)")
        }
        #expect(ruled == 1)
        #expect(transitioned == 20)
        for store in stores {
            #expect(try await store.verifyAuditChain() == nil)
            #expect(try await store.checkCounters().isEmpty)
        }
        // 30 + 1 submissions and 20 verifications, each one entry of the one chain.
        #expect(try await t.store.auditHead().sequence == head + 51)
    }

    @Test("the 14-day rule refuses a reporter's second covid report and keeps nothing of it, and lets a misconduct report or a report after a rejection through",
          arguments: StoreBackend.allCases)
    func resubmission(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        let account = try await s.createAccount(email: "r@campus.example", role: .reporter, passwordHash: "h")
        let first = Date(timeIntervalSince1970: 1_790_000_000)
        _ = try await s.submit(ReportSubmission(record: record("first", reporter: account.id, at: first), idempotencyKey: nil))
        await #expect(throws: ResubmissionTooSoon(opens: first.addingTimeInterval(ResubmissionRule.window))) {
            _ = try await s.submit(ReportSubmission(record: record("second", reporter: account.id, at: first.addingTimeInterval(3600)), idempotencyKey: nil))
        }
        #expect(try await s.report(id: "second") == nil)
        #expect(try await s.history(reportID: "second").isEmpty)
        _ = try await s.submit(ReportSubmission(record: record("other", reporter: account.id, kind: .misconduct, at: first.addingTimeInterval(3600)),
                                                idempotencyKey: nil))
        _ = try await s.transition(reportID: "first", .reject, reason: "not a case", actor: "v", expectedVersion: nil)
        _ = try await s.submit(ReportSubmission(record: record("third", reporter: account.id, at: first.addingTimeInterval(7200)), idempotencyKey: nil))
        #expect(try await s.report(id: "third") != nil)
    }

    @Test("transitions follow the state machine, record the audit entry and bump the version", arguments: StoreBackend.allCases)
    func transitions(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        _ = try await s.submit(ReportSubmission(record: record("r"), idempotencyKey: nil))
        let before = try await s.dataVersion()
        let verified = try await s.transition(reportID: "r", .verify, reason: nil, actor: "v1", expectedVersion: 1)
        #expect(verified.status == .verified && verified.version == 2)
        #expect(try await s.dataVersion() == before + 1)
        await #expect(throws: ReportChangeError.transition(.notAllowed(.reject, from: .verified), current: .verified)) {
            try await s.transition(reportID: "r", .reject, reason: "dup", actor: "v1", expectedVersion: nil)
        }
        await #expect(throws: ReportChangeError.transition(.reasonRequired(.revoke), current: .verified)) {
            try await s.transition(reportID: "r", .revoke, reason: " ", actor: "v1", expectedVersion: nil)
        }
        await #expect(throws: ReportChangeError.staleVersion(current: 2, status: .verified)) {
            try await s.transition(reportID: "r", .revoke, reason: "wrong hall", actor: "v1", expectedVersion: 1)
        }
        await #expect(throws: ReportChangeError.notFound) { try await s.transition(reportID: "x", .verify, reason: nil, actor: "v", expectedVersion: nil) }
        _ = try await s.transition(reportID: "r", .revoke, reason: "wrong hall", actor: "v2", expectedVersion: 2)
        let history = try await s.history(reportID: "r")
        #expect(history.map(\.action) == ["submit", "verify", "revoke"])
        #expect(history.last?.reason == "wrong hall" && history.last?.actor == "v2" && history.last?.fromStatus == .verified)
    }

    @Test("of two concurrent transitions of one report exactly one wins", arguments: StoreBackend.allCases)
    func concurrentTransitions(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        _ = try await s.submit(ReportSubmission(record: record("r"), idempotencyKey: nil))
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for t in [ReportTransition.verify, .reject, .verify, .reject] {
                group.addTask { (try? await s.transition(reportID: "r", t, reason: "r", actor: "v", expectedVersion: 1)) != nil }
            }
            var wins = 0
            for await ok in group where ok { wins += 1 }
            return wins
        }
        #expect(outcomes == 1)
        #expect(try await s.history(reportID: "r").count == 2)
    }

    @Test("the audit chain detects an edited and a deleted entry", arguments: StoreBackend.allCases)
    func tamper(backend: StoreBackend) async throws {
        let t = try await backend.make()
        defer { t.remove() }
        let s = t.store
        for i in 0..<3 { _ = try await s.submit(ReportSubmission(record: record("r\(i)"), idempotencyKey: nil)) }
        _ = try await s.transition(reportID: "r1", .reject, reason: "duplicate", actor: "v", expectedVersion: nil)
        #expect(try await s.verifyAuditChain() == nil)
                #expect(throws: (any Error).self) { try t.raw("UPDATE audit SET reason = 'edited' WHERE sequence = 4") }
        // Someone with write access to the file drops the guards and edits a row.
        try t.dropAuditGuards()
        try t.raw("UPDATE audit SET reason = 'edited' WHERE sequence = 4")
        #expect(try await s.verifyAuditChain() == 4)
        try t.raw("UPDATE audit SET reason = 'duplicate' WHERE sequence = 4")
        #expect(try await s.verifyAuditChain() == nil)
        try t.raw("DELETE FROM audit WHERE sequence = 2")
        #expect(try await s.verifyAuditChain() == 3)
    }
}

@Suite("Time-ordered ids")
struct TimeOrderedIDTests {
    @Test("ids are UUIDs of version 7 and RFC 9562's variant, carrying the millisecond")
    func layout() throws {
        var g = SystemRandomNumberGenerator()
        let id = TimeOrderedID.make(milliseconds: 0x0192_F3A4_5B6C, using: &g)
        #expect(id.count == 36 && id == id.lowercased())
        #expect(id.hasPrefix("0192f3a4-5b6c-7"))
        #expect(UUID(uuidString: id) != nil)
        let variant = id[id.index(id.startIndex, offsetBy: 19)]
        #expect("89ab".contains(variant))
        // The exact layout, as ids already stored have it: the generator's first word low byte
        // first from the seventh byte (its byte 6 under the version, 7, then 0, 1, 2), the second
        // word's bytes 3 to 7 after it, version and variant bits set.
        struct Fixed: RandomNumberGenerator {
            var words: [UInt64] = [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210]
            mutating func next() -> UInt64 { words.removeFirst() }
        }
        var fixed = Fixed()
        #expect(TimeOrderedID.make(milliseconds: 0x0192_F3A4_5B6C, using: &fixed) == "0192f3a4-5b6c-7301-afcd-ab7698badcfe")
    }

    @Test("a later millisecond sorts later, and ids of one millisecond differ")
    func order() {
        var g = SystemRandomNumberGenerator()
        let ids = (0..<2_000).map { TimeOrderedID.make(milliseconds: 1_700_000_000_000 + UInt64($0 / 4), using: &g) }
        for i in stride(from: 4, to: ids.count, by: 4) { #expect(ids[i - 1] < ids[i]) }
        #expect(Set(ids).count == ids.count)
        #expect(TimeOrderedID.make() > TimeOrderedID.make(now: Date(timeIntervalSinceNow: -1)))
    }
}

@Suite("timestamps")
struct TimestampTests {
    @Test("the fast UTC reader agrees with ISO 8601 parsing and leaves other forms to it")
    func parseUTC() throws {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for text in ["2026-11-10T08:00:00.000Z", "1999-12-31T23:59:59.999Z", "2024-02-29T12:34:56.5Z", "1970-01-01T00:00:00.001Z"] {
            let fast = try #require(Timestamp.parseUTC(text))
            #expect(abs(fast.timeIntervalSince1970 - (try style.parse(text)).timeIntervalSince1970) < 0.0005, "\(text)")
            // Written back, the same text: an export imported and exported again is the same file.
            #expect(Timestamp.format(fast) == text.replacingOccurrences(of: ".5Z", with: ".500Z"), "\(text)")
        }
        #expect(Timestamp.parseUTC("2026-11-10T08:00:00Z")?.timeIntervalSince1970 == 1_794_297_600)
        // The same text as ISO 8601 formatting where the instant is an exact binary fraction, also
        // before 1970; otherwise rounded where Foundation cuts (x.123 would be written x.122).
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_794_297_600.123)) == "2026-11-10T08:00:00.123Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        for seconds in [-86_400.25, 0, 1_794_297_600.5, 4_102_444_799.75] {
            #expect(Timestamp.format(Date(timeIntervalSince1970: seconds)) == style.format(Date(timeIntervalSince1970: seconds)), "\(seconds)")
        }
        for ms in 0..<1000 {
            let text = "2026-11-10T08:00:00.\(String(repeating: "0", count: 3 - String(ms).count))\(ms)Z"
            #expect(Timestamp.format(try Timestamp.parse(text)) == text)
        }
        for other in ["2026-11-10T08:00:00+01:00", "2026-11-10 08:00:00Z", "2026-02-30T08:00:00Z", "2026-11-10T24:00:00Z", "2026-11-10T08:00:00.Z", "x"] {
            #expect(Timestamp.parseUTC(other) == nil, "\(other)")
        }
    }

    @Test("a stored time reads back to the millisecond it was written at; text that is no time is an error, not 1970")
    func unreadable() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000.123_4)
        #expect(try Timestamp.parse(Timestamp.format(now)) == Timestamp.rounded(now))
        #expect(try Timestamp.parse("2026-11-20T21:15:00+01:00") == Date(timeIntervalSince1970: 1_795_205_700))
        for text in ["", "not a time", "2026-02-30T08:00:00Z"] {
            #expect(throws: StorageError.self, "\(text)") { try Timestamp.parse(text) }
        }
    }
}
