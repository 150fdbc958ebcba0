import DomainKernel
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ReportVerification
import Storage

/// Report intake and the reporter's side: submit (idempotent, durable), read one's own report's
/// status, withdraw while pending.
struct ReportsController {
    let reports: any ReportStore
    /// Review claims and viewer grants, for who may read a report.
    let verification: any VerificationStore
    let catalog: LayerCatalog
    /// Brings the catalog up to date when another process published a version meanwhile.
    let watcher: DataVersionWatcher
    let receipts: Receipts
    let timeZone: TimeZone
    let intakeLimit: IntakeRateLimit
    let metrics: ServiceMetrics
    let idempotency: IdempotencyKeys

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.post("reports") { request, context in try await submit(request, context) }
        v1.get("reports/:id") { request, context in try await read(request, context) }
        v1.post("reports/:id/withdraw") { request, context in try await withdraw(request, context) }
    }

    func submit(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        if let account = context.account, !account.role.allows(.submitReport) {
            throw APIError(status: .forbidden, code: "forbidden", message: "the \(account.role.rawValue) role does not submit reports")
        }
        try intakeLimit.admit(request, context)
        let key = try IdempotencyKeys.checked(request.headers[.idempotencyKey])
        let body = try await request.jsonBody(context: context)
        let draft: ReportDraft
        do throws(ReportDraft.ReadError) { draft = try ReportDraft(json: Array(body.readableBytesView)) } catch {
            throw APIError(status: .badRequest, code: "bad_request", message: error.message, field: error.field)
        }
        let report: Report
        do { report = try draft.validated(now: Date(), timeZone: timeZone) } catch {
            let first = error.problems.first
            throw APIError(status: .unprocessableContent, code: "invalid",
                           message: error.problems.map(\.description).joined(separator: "; "), field: first?.field, problems: error.problems)
        }
        // A valid report from a caller without an account: it joins the anonymous queue, which
        // the bound keeps from being buried (junk that does not validate never counts).
        if context.account == nil { try await intakeLimit.pending.admit(reports, metrics: metrics) }
        let anonymous: Bool = if case .misconduct(let m) = report { m.anonymous } else { false }
        let reporterID = anonymous ? nil : context.account?.id
        let id = TimeOrderedID.make()
        let now = Date()
        // Placed in this process's snapshot of the layers, and stored only beside the versions
        // published at the commit (`StalePlacement`): when another process published a new
        // version meanwhile, the catalog is brought up to date and the report placed again.
        var outcome: SubmissionOutcome?
        for attempt in 1...3 where outcome == nil {
            let layers = catalog.snapshot()
            let placed = try ReportPlacement(layers: layers).place(report.place)
            let record = ReportRecord(id: id, kind: report.kind, status: .pending, version: 1, reporterID: reporterID,
                                      submittedAt: now, updatedAt: now, occurredOn: report.occurredOn, payload: Data(report.storedJSON),
                                      lon: placed.lon, lat: placed.lat, areas: placed.areas, group: report.breakdownGroup)
            let submission = ReportSubmission(record: record, idempotencyKey: key.map(idempotency.digest),
                                              requestDigest: key == nil ? nil : IdempotencyKeys.requestDigest(body),
                                              placedOn: ReportPlacement.versions(of: layers))
            do { outcome = try await reports.submit(submission) } catch let stale as StalePlacement {
                context.logger.notice("the areas changed while a report was placed; placing it again", metadata: [
                    "attempt": .stringConvertible(attempt), "placed": "\(stale.placedOn)", "published": "\(stale.published)",
                ])
                try await watcher.check()
            }
        }
        guard let outcome else { throw APIError.unavailable("the areas changed while the report was placed; send it again") }
        let stored = outcome.record
        let submitted = SubmittedReport(id: stored.id, kind: stored.kind, status: stored.status, areas: stored.areas,
                                  receipt: stored.reporterID == nil ? receipts.token(reportID: stored.id) : nil)
        var response = Response(status: .created, headers: [.contentType: "application/json; charset=utf-8", .location: "/v1/reports/\(stored.id)"],
                                body: .init(byteBuffer: ByteBuffer(bytes: submitted.json)))
        switch outcome {
        case .replayed: response.headers[.idempotencyReplayed] = "true"
        case .created: metrics.reportReceived(stored.kind)
        }
        return response
    }

    /// Verifiers and granted viewers see the whole report; its reporter and the holder of its
    /// receipt see its status; everyone else learns nothing, not even that it exists.
    func read(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let r = try await reports.report(id: id) else { throw APIError.notFound("no such report") }
        if let account = context.account {
            if account.role.allows(.readReportHistory) {
                return try ReportView(r, claim: try await verification.claim(reportID: id, now: Date())).response(from: request, context: context)
            }
            if account.role == .viewer, try await verification.isGranted(reportID: id, viewerID: account.id) {
                return try ReportView(r, audience: .grantedViewer).response(from: request, context: context)
            }
            if r.reporterID == account.id { return try ReportStatusView(r).response(from: request, context: context) }
        }
        if receipts.isPresented(in: request, for: r) { return try ReportStatusView(r).response(from: request, context: context) }
        throw APIError.notFound("no such report")
    }

    func withdraw(_ request: Request, _ context: AppRequestContext) async throws -> ReportStatusView {
        let id = try context.parameters.require("id")
        guard let r = try await reports.report(id: id) else { throw APIError.notFound("no such report") }
        let actor: String
        if let account = context.account, r.reporterID == account.id {
            actor = account.id
        } else if receipts.isPresented(in: request, for: r) {
            actor = "anonymous"
        } else {
            throw APIError.notFound("no such report")
        }
        return ReportStatusView(try await reports.transition(reportID: id, .withdraw, reason: nil, actor: actor, expectedVersion: nil))
    }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let idempotencyReplayed = HTTPField.Name("Idempotency-Replayed")!
}
