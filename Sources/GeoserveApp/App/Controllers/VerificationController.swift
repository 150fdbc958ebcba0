import Aggregation
import DomainKernel
import Foundation
import Hummingbird
import ReportVerification
import Storage

/// The verifiers' side: the queue, transitions (one or many), review claims, history and viewer
/// grants. Role checks live on the route groups.
struct VerificationController {
    let reports: any ReportStore
    let verification: any VerificationStore
    let audit: any AuditLog
    /// Told after each transition, so that this process serves the new numbers at once.
    let watcher: DataVersionWatcher
    let metrics: ServiceMetrics
    /// How long a review claim lasts unless renewed.
    let claimDuration: TimeInterval = 15 * 60

    struct TransitionRequest: StrictRequestBody {
        static let members: Set<String> = ["transition", "reason", "version"]
        let transition: ReportTransition
        let reason: String?
        /// The version the verifier read; the change is refused if the report moved on.
        let version: Int?
    }

    struct BulkRequest: StrictRequestBody {
        static let members: Set<String> = ["ids", "transition", "reason"]
        let ids: [String]
        let transition: ReportTransition
        let reason: String?
    }

    struct BulkResult: Codable {
        let id: String
        let ok: Bool
        let status: ReportStatus?
        let error: String?
    }

    struct BulkResponse: ResponseEncodable {
        let results: [BulkResult]
    }

    struct QueueResponse: ResponseEncodable {
        let reports: [ReportView]
        let next: String?
    }

    struct GrantRequest: StrictRequestBody {
        static let members: Set<String> = ["viewerId"]
        let viewerId: String
    }

    struct HistoryResponse: ResponseEncodable {
        let entries: [AuditEntry]
    }

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        let queue = v1.group("verification").add(middleware: RequirePermission(.workQueue))
        queue.get("queue") { request, context in try await self.queue(request, context) }
        queue.post("bulk") { request, context in try await bulk(request, context) }

        let reports = v1.group("reports")
        let verifier = reports.group().add(middleware: RequirePermission(.transitionReports))
        verifier.post(":id/transitions") { request, context in try await transition(request, context) }
        verifier.post(":id/claim") { _, context in try await claim(context) }
        verifier.delete(":id/claim") { _, context in
            try await verification.release(reportID: try context.parameters.require("id"), holder: context.account!.id)
            return Response(status: .noContent)
        }
        reports.group().add(middleware: RequirePermission(.readReportHistory)).get(":id/history") { _, context in
            let id = try context.parameters.require("id")
            guard try await self.reports.report(id: id) != nil else { throw APIError.notFound("no such report") }
            return HistoryResponse(entries: try await audit.history(reportID: id))
        }
        let grants = reports.group().add(middleware: RequirePermission(.manageGrants))
        grants.post(":id/grants") { request, context in
            let body = try await request.decodeStrict(as: GrantRequest.self, context: context)
            do {
                try await verification.grant(reportID: try context.parameters.require("id"), viewerID: body.viewerId, by: context.account!.id)
            } catch StorageError.notFound(let what) {
                throw APIError.notFound("\(what) does not exist")
            }
            return Response(status: .noContent)
        }
        grants.delete(":id/grants/:viewer") { _, context in
            try await verification.revokeGrant(reportID: try context.parameters.require("id"), viewerID: try context.parameters.require("viewer"),
                                        by: context.account!.id)
            return Response(status: .noContent)
        }
    }

    func queue(_ request: Request, _ context: AppRequestContext) async throws -> QueueResponse {
        let q = try QueryValues(request, QueryParameters.queue)
        let filter = QueueFilter(statuses: q.values(QueryParameters.statuses) ?? [.pending], kind: q.value(QueryParameters.kind),
                                 layer: q.text(QueryParameters.queueLayer), areaID: q.text(QueryParameters.queueArea),
                                 from: q.day(QueryParameters.queueFrom), to: q.day(QueryParameters.queueTo))
        if let cursor = q.text(QueryParameters.queueCursor), QueueCursor(cursor) == nil {
            throw APIError.badParameter("cursor is not one this service issued", field: "cursor")
        }
        let page = try await verification.queue(filter, limit: q.int(QueryParameters.queueLimit)!, cursor: q.text(QueryParameters.queueCursor))
        return QueueResponse(reports: page.reports.map { ReportView($0) }, next: page.nextCursor)
    }

    func transition(_ request: Request, _ context: AppRequestContext) async throws -> ReportView {
        let id = try context.parameters.require("id")
        let body = try await request.decodeStrict(as: TransitionRequest.self, context: context)
        guard body.transition != .withdraw else {
            throw APIError(status: .forbidden, code: "forbidden", message: "only the reporter withdraws a report")
        }
        if let claim = try await verification.claim(reportID: id, now: Date()), claim.holder != context.account!.id {
            throw APIError(status: .conflict, code: "claimed", message: "another verifier is reviewing this report until \(claim.expiresAt)")
        }
        let r = try await reports.transition(reportID: id, body.transition, reason: body.reason, actor: context.account!.id, expectedVersion: body.version)
        metrics.reportDecided(r, body.transition)
        try await verification.release(reportID: id, holder: context.account!.id)
        await watcher.noteCommit()
        return ReportView(r)
    }

    func bulk(_ request: Request, _ context: AppRequestContext) async throws -> BulkResponse {
        let body = try await request.decodeStrict(as: BulkRequest.self, context: context)
        guard (1...500).contains(body.ids.count) else { throw APIError.invalid("ids holds 1 to 500 report ids", field: "ids") }
        // Checked once for the whole batch rather than failing every report alike.
        if body.transition.requiresReason, (body.reason ?? "").allSatisfy(\.isWhitespace) {
            throw APIError.invalid(TransitionError.reasonRequired(body.transition).description, field: "reason")
        }
        guard context.account!.role.allows(.transitionReports), body.transition != .withdraw else {
            throw APIError(status: .forbidden, code: "forbidden", message: "this transition is not allowed in bulk")
        }
        var results: [BulkResult] = []
        for id in body.ids {
            if let claim = try await verification.claim(reportID: id, now: Date()), claim.holder != context.account!.id {
                results.append(BulkResult(id: id, ok: false, status: nil, error: "another verifier is reviewing this report"))
                continue
            }
            do {
                let r = try await reports.transition(reportID: id, body.transition, reason: body.reason, actor: context.account!.id, expectedVersion: nil)
                metrics.reportDecided(r, body.transition)
                results.append(BulkResult(id: id, ok: true, status: r.status, error: nil))
            } catch let e as ReportChangeError {
                let current: ReportStatus? = if case .transition(_, let c) = e { c } else { nil }
                results.append(BulkResult(id: id, ok: false, status: current, error: e.apiError.message))
            }
        }
        await watcher.noteCommit()
        return BulkResponse(results: results)
    }

    func claim(_ context: AppRequestContext) async throws -> ReportClaim {
        let id = try context.parameters.require("id")
        do {
            return try await verification.claim(reportID: id, holder: context.account!.id, until: Date().addingTimeInterval(claimDuration), now: Date())
        } catch ClaimError.heldByOther(let c) {
            throw APIError(status: .conflict, code: "claimed", message: "held by \(c.holder) until \(c.expiresAt)")
        } catch ClaimError.notFound {
            throw APIError.notFound("no such report")
        }
    }
}

extension ReportClaim: ResponseEncodable {}
