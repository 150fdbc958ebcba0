import Foundation

/// A photo or video attached to a report. The bytes live in a file under the data folder; the
/// store keeps where, what and the checksum. Never public.
public struct Attachment: Hashable, Sendable, Codable {
    public let id: String
    public let reportID: String
    public let contentType: String
    public let size: Int
    /// Hex SHA-256 of the bytes, computed while they were received.
    public let sha256: String
    /// File name relative to the attachments folder.
    public let file: String
    public let createdAt: Date

    public init(id: String, reportID: String, contentType: String, size: Int, sha256: String, file: String, createdAt: Date) {
        self.id = id
        self.reportID = reportID
        self.contentType = contentType
        self.size = size
        self.sha256 = sha256
        self.file = file
        self.createdAt = createdAt
    }
}

/// Persistence of attachment metadata.
public protocol AttachmentStore: Sendable {
    /// Records an attachment whose file is already durable, with an audit entry.
    func addAttachment(_ a: Attachment, uploadedBy: String) async throws

    /// The attachments of a report, oldest first.
    func attachments(reportID: String) async throws -> [Attachment]

    /// One attachment, or nil.
    func attachment(id: String) async throws -> Attachment?
}
