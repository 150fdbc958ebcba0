import Foundation
import Hummingbird
import ReportVerification
import Storage

/// Alerts and resources: public reads of what is current, admin writes audited in the store.
///
/// `GET /v1/alerts` shows the alerts whose window contains now; `state=scheduled|expired|all`
/// is for admins, since an alert written ahead of its start is not yet public.
struct NoticesController {
    let board: NoticeBoard

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.get("alerts") { request, context in try await alertList(request, context) }
        v1.get("alerts/:id") { request, context in try await alert(request, context) }
        v1.get("resources") { request, _ in try await resourceList(request) }
        v1.get("resources/:id") { request, context in try await resource(request, context) }

        let alerts = v1.group("alerts").add(middleware: RequirePermission(.manageNotices))
        alerts.post { request, context in
            let content = try await request.decodeStrict(as: AlertRequest.self, context: context).content(now: Date())
            let made = try await board.store.createAlert(content, actor: try actor(context), at: Date())
            board.changed()
            return EditedResponse(status: .created, response: AlertView(made, now: Date()))
        }
        alerts.put(":id") { request, context in
            let content = try await request.decodeStrict(as: AlertRequest.self, context: context).content(now: Date())
            return try await change("alert", context) { id, actor in
                try await board.store.updateAlert(id: id, content, action: "alert-update", actor: actor, at: Date())
            }
        }
        alerts.post(":id/expire") { _, context in
            try await change("alert", context) { id, actor in
                let now = Date()
                guard let current = try await board.snapshotAlert(id: id) else { throw StorageError.notFound("alert \(id)") }
                return try await board.store.updateAlert(id: id, current.content.expired(at: now), action: "alert-expire", actor: actor, at: now)
            }
        }
        alerts.delete(":id") { _, context in
            try await remove("alert", context) { id, actor in try await board.store.deleteAlert(id: id, actor: actor, at: Date()) }
        }

        let resources = v1.group("resources").add(middleware: RequirePermission(.manageNotices))
        resources.post { request, context in
            let content = try await request.decodeStrict(as: ResourceRequest.self, context: context).content()
            let made = try await board.store.createResource(content, actor: try actor(context), at: Date())
            board.changed()
            return EditedResponse(status: .created, response: ResourceView(made))
        }
        resources.put(":id") { request, context in
            let content = try await request.decodeStrict(as: ResourceRequest.self, context: context).content()
            let id = try context.parameters.require("id")
            do {
                let changed = try await board.store.updateResource(id: id, content, actor: try actor(context), at: Date())
                board.changed()
                return ResourceView(changed)
            } catch StorageError.notFound {
                throw APIError.notFound("no resource \(id)")
            }
        }
        resources.delete(":id") { _, context in
            try await remove("resource", context) { id, actor in try await board.store.deleteResource(id: id, actor: actor, at: Date()) }
        }
    }

    // MARK: reads

    func alertList(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let q = try QueryValues(request, QueryParameters.alerts)
        let state = q.text(QueryParameters.alertState)!
        let now = Date()
        let everyone = state == AlertState.current.rawValue
        if !everyone { try requireManager(context) }
        let alerts = try await board.snapshot().alerts
            .filter { state == "all" || $0.state(at: now).rawValue == state }
            .sorted { ($0.content.severity.rank, $0.content.startsAt) > ($1.content.severity.rank, $1.content.startsAt) }
        return try json(request, AlertList(alerts: alerts.map { AlertView($0, now: now) }), shared: everyone)
    }

    func alert(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let now = Date()
        let manager = context.account?.role.allows(.manageNotices) == true
        // Not current and not an admin: as if it did not exist, so ids of drafts do not leak.
        guard let found = try await board.snapshotAlert(id: id), manager || found.state(at: now) == .current else {
            throw APIError.notFound("no current alert \(id)")
        }
        return try json(request, AlertView(found, now: now), shared: !manager)
    }

    func resourceList(_ request: Request) async throws -> Response {
        try json(request, ResourceList(resources: try await board.snapshot().resources.map(ResourceView.init)), shared: true)
    }

    func resource(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let found = try await board.snapshot().resources.first(where: { $0.id == id }) else { throw APIError.notFound("no resource \(id)") }
        return try json(request, ResourceView(found), shared: true)
    }

    /// A JSON body with an ETag of its bytes: a dashboard polling an unchanged list gets 304.
    private func json(_ request: Request, _ value: some Encodable, shared: Bool) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = try encoder.encode(value)
        return Conditional.response(request, body: ByteBuffer(bytes: bytes), contentType: "application/json",
                                    etag: Conditional.etag(bytes: bytes), cacheControl: shared ? Conditional.publicCaching : Conditional.privateCaching)
    }

    // MARK: writes

    private func actor(_ context: AppRequestContext) throws -> String {
        guard let account = context.account else { throw APIError.unauthorized("this needs a bearer token") }
        return account.id
    }

    private func requireManager(_ context: AppRequestContext) throws {
        guard let account = context.account else { throw APIError.unauthorized("only admins see alerts that are not current; this needs a bearer token") }
        guard account.role.allows(.manageNotices) else {
            throw APIError(status: .forbidden, code: "forbidden", message: "the \(account.role.rawValue) role sees only current alerts")
        }
    }

    private func change(_ what: String, _ context: AppRequestContext,
                        _ body: (String, String) async throws -> StoredAlert) async throws -> AlertView {
        let id = try context.parameters.require("id")
        do {
            let changed = try await body(id, try actor(context))
            board.changed()
            return AlertView(changed, now: Date())
        } catch StorageError.notFound {
            throw APIError.notFound("no \(what) \(id)")
        }
    }

    private func remove(_ what: String, _ context: AppRequestContext, _ body: (String, String) async throws -> Void) async throws -> Response {
        let id = try context.parameters.require("id")
        do {
            try await body(id, try actor(context))
            board.changed()
            return Response(status: .noContent)
        } catch StorageError.notFound {
            throw APIError.notFound("no \(what) \(id)")
        }
    }
}

extension NoticeBoard {
    /// One alert from the snapshot, read again from the store when the snapshot lacks it (made
    /// a moment ago through another process).
    func snapshotAlert(id: String) async throws -> StoredAlert? {
        if let found = try await snapshot().alerts.first(where: { $0.id == id }) { return found }
        return try await store.alerts().first { $0.id == id }
    }
}
