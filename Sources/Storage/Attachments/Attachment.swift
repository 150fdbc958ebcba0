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
