import DomainKernel
import Foundation
import Storage

extension SQLiteStore: AttachmentStore {
    private static let attachmentColumns = "id, report_id, content_type, size, sha256, file, created_at"

    private static func attachment(_ s: SQLiteStatement) throws -> Attachment {
        Attachment(id: s.text(0)!, reportID: s.text(1)!, contentType: s.text(2)!, size: Int(s.int(3)), sha256: s.text(4)!,
                   file: s.text(5)!, createdAt: try Timestamp.parse(s.text(6)!))
    }

    public func addAttachment(_ a: Attachment, uploadedBy: String, limits: AttachmentLimits) async throws {
        try await run { db in
            try db.transaction {
                guard try Self.loadReport(id: a.reportID, db) != nil else { throw StorageError.notFound("report \(a.reportID)") }
                let held = try db.prepare("SELECT count(*), coalesce(sum(size), 0) FROM attachments WHERE report_id = ?").bind(.text(a.reportID))
                _ = try held.step()
                try limits.check(holding: Int(held.int(0)), bytes: Int(held.int(1)), adding: a.size)
                let at = Timestamp.format(a.createdAt)
                try db.prepare("INSERT INTO attachments (\(Self.attachmentColumns), uploaded_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                    .bind(.text(a.id), .text(a.reportID), .text(a.contentType), .int(Int64(a.size)), .text(a.sha256), .text(a.file), .text(at),
                          .text(uploadedBy)).run()
                try Self.appendAudit(db, AuditFields(reportID: a.reportID, actor: uploadedBy, at: at, action: "attach:\(a.id)"))
            }
        }
    }

    public func attachments(reportID: String) async throws -> [Attachment] {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.attachmentColumns) FROM attachments WHERE report_id = ? ORDER BY created_at, id").bind(.text(reportID))
            var out: [Attachment] = []
            while try s.step() { out.append(try Self.attachment(s)) }
            return out
        }
    }

    public func attachment(id: String) async throws -> Attachment? {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.attachmentColumns) FROM attachments WHERE id = ?").bind(.text(id))
            return try s.step() ? Self.attachment(s) : nil
        }
    }
}
