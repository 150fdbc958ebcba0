import Foundation

/// Persistence of attachment metadata.
public protocol AttachmentStore: Sendable {
    /// Records an attachment whose file is already durable, with an audit entry, unless the
    /// report already holds as many files or bytes as `limits` allow
    /// (`StorageError.limitReached`).
    func addAttachment(_ a: Attachment, uploadedBy: String, limits: AttachmentLimits) async throws

    /// The attachments of a report, oldest first.
    func attachments(reportID: String) async throws -> [Attachment]

    /// One attachment, or nil.
    func attachment(id: String) async throws -> Attachment?
}
