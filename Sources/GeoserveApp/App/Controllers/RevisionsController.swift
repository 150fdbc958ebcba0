import DomainKernel
import Foundation
import Hummingbird
import ReportVerification
import Storage
import Support

/// Edits and revisions: the reporter edits while the report is pending, verifiers at any time;
/// each edit re-validates the whole report, re-places it, and keeps the previous content as a
/// revision (the newest `keep` are kept); any kept revision can be restored.
struct RevisionsController {
    let reports: any ReportStore
    let revisions: any RevisionStore
    /// Told after each edit or restore, so that this process serves the new numbers at once.
    let watcher: DataVersionWatcher
    let catalog: LayerCatalog
    let timeZone: TimeZone
    let keep: Int

    struct RevisionView: Codable {
        let revision: Int
        let at: Date
        let actor: String
        let occurredOn: Day
        let areas: [AreaAssignment]
        let report: JSONValueBox
    }

    struct Revisions: ResponseEncodable {
        let revisions: [RevisionView]
    }

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.patch("reports/:id") { request, context in try await edit(request, context) }
        v1.get("reports/:id/revisions") { _, context in
            let id = try context.parameters.require("id")
            _ = try await editor(of: id, context)
            let kept = try await revisions.revisions(reportID: id)
            return Revisions(revisions: kept.map {
                RevisionView(revision: $0.revision, at: $0.at, actor: $0.actor, occurredOn: $0.occurredOn, areas: $0.areas,
                             report: JSONValueBox(data: $0.payload))
            })
        }
        v1.post("reports/:id/revisions/:revision/restore") { request, context in
            let id = try context.parameters.require("id")
            guard let revision = Int(try context.parameters.require("revision")) else { throw APIError.notFound("no such revision") }
            let (account, permission) = try await editor(of: id, context)
            do {
                let r = try await revisions.restore(reportID: id, revision: revision, actor: account.id, expectedVersion: nil, keep: keep, permission: permission)
                await watcher.noteCommit()
                return ReportView(r)
            } catch StorageError.notFound {
                throw APIError.notFound("revision \(revision) is not kept")
            }
        }
    }

    /// The editing account and what it may change, checked again inside the store's transaction:
    /// a reporter only while pending (the status may change between this check and the write).
    private func editor(of id: String, _ context: AppRequestContext) async throws -> (StoredAccount, EditPermission) {
        guard let account = context.account else { throw APIError.unauthorized("editing needs a bearer token") }
        guard let r = try await reports.report(id: id) else { throw APIError.notFound("no such report") }
        if account.role.allows(.editAnyReport) { return (account, .anyStatus) }
        guard r.reporterID == account.id, account.role.allows(.editOwnPendingReport) else { throw APIError.notFound("no such report") }
        return (account, .whilePending)
    }

    func edit(_ request: Request, _ context: AppRequestContext) async throws -> ReportView {
        let id = try context.parameters.require("id")
        let (account, permission) = try await editor(of: id, context)
        let body = try EditRequest(json: Array(try await request.jsonBody(context: context).readableBytesView))
        let report: Report
        do { report = try body.report.validated(now: Date(), timeZone: timeZone) } catch {
            throw APIError(status: .unprocessableContent, code: "invalid", message: error.problems.map(\.description).joined(separator: "; "),
                           field: error.problems.first?.field, problems: error.problems)
        }
        guard let current = try await reports.report(id: id), current.kind == report.kind else {
            throw APIError.invalid("an edit cannot change the report's kind", field: "kind")
        }
        let placed = try ReportPlacement(layers: catalog.snapshot()).place(report.place)
        let change = ReportEdit(occurredOn: report.occurredOn, lon: placed.lon, lat: placed.lat, areas: placed.areas, payload: Data(report.storedJSON))
        let r = try await revisions.edit(reportID: id, change, actor: account.id, expectedVersion: body.version, keep: keep, permission: permission)
        await watcher.noteCommit()
        return ReportView(r)
    }

    /// `{"report": <whole draft>, "version"?: n}`, read as strictly as a submission: unknown
    /// members anywhere are refused.
    struct EditRequest {
        /// The whole report as it should read after the edit.
        let report: ReportDraft
        /// The version the editor read.
        let version: Int?

        init(json bytes: [UInt8]) throws {
            func bad(_ message: String, _ field: String? = nil) -> APIError {
                APIError(status: .badRequest, code: "bad_request", message: message, field: field)
            }
            let parsed: JSONValue
            do { parsed = try JSONParser.parse(bytes) } catch {
                if let twice = error.duplicateMember { throw APIError.duplicateMember(twice) }
                throw bad("the body is not the expected JSON object")
            }
            guard case .object(let members) = parsed else { throw bad("the body is not the expected JSON object") }
            if let unknown = members.keys.filter({ $0 != "report" && $0 != "version" }).min() { throw APIError.unknownMember(unknown) }
            guard let draft = members["report"] else { throw bad("required member \"report\" is missing", "report") }
            do throws(ReportDraft.ReadError) { report = try ReportDraft(value: draft, path: "report") } catch {
                throw bad(error.message, error.field)
            }
            switch members["version"] {
            case nil, .null?: version = nil
            case .number(let n)? where n == n.rounded() && Int(exactly: n) != nil: version = Int(exactly: n)
            default: throw bad("member \"version\" has the wrong type", "version")
            }
        }
    }
}

/// Embeds stored JSON as-is in a response.
struct JSONValueBox: Codable {
    let value: JSONValue

    init(data: Data) {
        value = (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
    }

    init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
