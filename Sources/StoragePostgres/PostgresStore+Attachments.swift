import DomainKernel
import Foundation
import Storage

extension PostgresStore: AttachmentStore {
    private static let attachmentColumns = "id, report_id, content_type, size, sha256, file, created_at"

    private static func attachment(_ s: PostgresResult, _ i: Int) throws -> Attachment {
        Attachment(id: s.string(i, 0), reportID: s.string(i, 1), contentType: s.string(i, 2), size: Int(s.int(i, 3)), sha256: s.string(i, 4),
                   file: s.string(i, 5), createdAt: try Timestamp.parse(s.string(i, 6)))
    }

    public func addAttachment(_ a: Attachment, uploadedBy: String, limits: AttachmentLimits) async throws {
        try await pool.writeTransaction("record an attachment") { db in
            guard try db.query("SELECT 1 FROM reports WHERE id = $1", [.text(a.reportID)]).count > 0 else { throw StorageError.notFound("report \(a.reportID)") }
            // The writer lock taken with BEGIN orders this count before any concurrent upload's.
            let held = try db.query("SELECT count(*), coalesce(sum(size), 0) FROM attachments WHERE report_id = $1", [.text(a.reportID)])
            try limits.check(holding: Int(held.int(0, 0)), bytes: Int(held.int(0, 1)), adding: a.size)
            let at = Timestamp.format(a.createdAt)
            try db.query("INSERT INTO attachments (\(Self.attachmentColumns), uploaded_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                         [.text(a.id), .text(a.reportID), .text(a.contentType), .int(Int64(a.size)), .text(a.sha256), .text(a.file), .text(at),
                          .text(uploadedBy)])
            try Self.appendAudit(db, AuditFields(reportID: a.reportID, actor: uploadedBy, at: at, action: "attach:\(a.id)"))
        }
    }

    public func attachments(reportID: String) async throws -> [Attachment] {
        try await pool.run("read attachments") { db in
            let s = try db.query("SELECT \(Self.attachmentColumns) FROM attachments WHERE report_id = $1 ORDER BY created_at, id", [.text(reportID)])
            return try (0..<s.count).map { try Self.attachment(s, $0) }
        }
    }

    public func attachment(id: String) async throws -> Attachment? {
        try await pool.run("read an attachment") { db in
            let s = try db.query("SELECT \(Self.attachmentColumns) FROM attachments WHERE id = $1", [.text(id)])
            return s.count > 0 ? try Self.attachment(s, 0) : nil
        }
    }
}
