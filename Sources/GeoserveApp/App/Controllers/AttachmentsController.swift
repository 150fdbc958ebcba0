import DomainKernel
import Foundation
import HTTPTypes
import Hummingbird
import ReportVerification
import Storage

/// Photo and video attachments: uploaded by the report's reporter (or the holder of its receipt)
/// or a verifier; read only by verifiers and by viewers granted the report. Never public.
struct AttachmentsController {
    let reports: any ReportStore
    let attachments: any AttachmentStore
    /// Viewer grants, for who may read attachments.
    let verification: any VerificationStore
    let receipts: Receipts
    let folder: URL
    /// Bytes of one file.
    let maxBytes: Int
    let limits: AttachmentLimits
    let floor: DiskFloor
    let intakeLimit: IntakeRateLimit

    struct AttachmentList: ResponseEncodable {
        let attachments: [AttachmentView]
    }

    struct AttachmentView: ResponseEncodable, Codable {
        let id: String
        let contentType: String
        let size: Int
        let sha256: String
        let createdAt: Date

        init(_ a: Attachment) {
            id = a.id
            contentType = a.contentType
            size = a.size
            sha256 = a.sha256
            createdAt = a.createdAt
        }
    }

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.post("reports/:id/attachments") { request, context in try await upload(request, context) }
        v1.get("reports/:id/attachments") { _, context in
            let id = try context.parameters.require("id")
            try await requireReader(reportID: id, context)
            return AttachmentList(attachments: try await attachments.attachments(reportID: id).map(AttachmentView.init))
        }
        v1.get("attachments/:id") { _, context in try await download(context) }
    }

    /// Who may attach: the reporter while the report is pending, the receipt holder likewise, and
    /// verifiers at any time.
    private func requireUploader(_ report: ReportRecord, _ request: Request, _ context: AppRequestContext) async throws -> String {
        if let account = context.account {
            if account.role.allows(.readAttachments) { return account.id }
            if report.reporterID == account.id, report.status == .pending { return account.id }
            throw APIError(status: .forbidden, code: "forbidden", message: "only the reporter (while pending) or a verifier may attach files")
        }
        if receipts.isPresented(in: request, for: report), report.status == .pending {
            return "anonymous"
        }
        throw APIError.unauthorized("this needs a bearer token or the report's receipt token")
    }

    private func requireReader(reportID: String, _ context: AppRequestContext) async throws {
        guard let account = context.account else { throw APIError.unauthorized("this needs a bearer token") }
        if account.role.allows(.readAttachments) { return }
        if account.role == .viewer, try await verification.isGranted(reportID: reportID, viewerID: account.id) { return }
        throw APIError(status: .forbidden, code: "forbidden", message: "attachments are for verifiers and viewers granted this report")
    }

    func upload(_ request: Request, _ context: AppRequestContext) async throws -> EditedResponse<AttachmentView> {
        let reportID = try context.parameters.require("id")
        guard let report = try await reports.report(id: reportID) else { throw APIError.notFound("no such report") }
        let uploader = try await requireUploader(report, request, context)
        guard report.kind.takesAttachments else {
            throw APIError(status: .unprocessableContent, code: "attachments_not_accepted",
                           message: "\(report.kind.rawValue) reports take no attachments")
        }
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > maxBytes {
            throw APIError.tooLarge(maxBytes, of: "an attachment")
        }
        // Refused before a byte is read: the caps as the report stands, the disk, the caller's
        // budget. The store checks the caps again in the insert's transaction, for races.
        let held = try await attachments.attachments(reportID: reportID)
        try limits.check(holding: held.count, bytes: held.reduce(0) { $0 + $1.size }, adding: declared ?? 1)
        try floor.check(folder, adding: Int64(declared ?? maxBytes))
        try intakeLimit.admit(request, context, bytes: declared ?? maxBytes)
        let id = TimeOrderedID.make()
        let receiver = AttachmentReceiver(folder: folder.appendingPathComponent(reportID), maxBytes: maxBytes, floor: floor)
        let received = try await receiver.receive(request.body, declared: request.headers[.contentType], name: id)
        intakeLimit.settle(request, context, charged: declared ?? maxBytes, actual: received.size)
        let attachment = Attachment(id: id, reportID: reportID, contentType: received.type.rawValue, size: received.size,
                                    sha256: received.sha256, file: "\(reportID)/\(received.file)", createdAt: Date())
        do {
            try await attachments.addAttachment(attachment, uploadedBy: uploader, limits: limits)
        } catch {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(attachment.file))
            throw error
        }
        return EditedResponse(status: .created, response: AttachmentView(attachment))
    }

    func download(_ context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard context.account != nil else { throw APIError.unauthorized("this needs a bearer token") }
        guard let a = try await attachments.attachment(id: id) else { throw APIError.notFound("no such attachment") }
        try await requireReader(reportID: a.reportID, context)
        let data = try Data(contentsOf: folder.appendingPathComponent(a.file), options: .alwaysMapped)
        var headers = HTTPFields()
        headers[.contentType] = a.contentType
        headers[.contentDisposition] = "attachment; filename=\"\(a.id)\""
        headers[.cacheControl] = "private, no-store"
        headers[.eTag] = "\"\(a.sha256)\""
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension HTTPField.Name {
    /// The anonymous reporter's receipt token.
    static let receiptToken = HTTPField.Name("X-Receipt-Token")!

}
