/// How many attachments, and how many bytes of them, one report may hold. Checked inside the
/// transaction that records an attachment, so concurrent uploads cannot both slip under the cap.
public struct AttachmentLimits: Hashable, Sendable {
    /// Files per report.
    public var count: Int
    /// Bytes of all of a report's files together.
    public var totalBytes: Int

    public init(count: Int, totalBytes: Int) {
        self.count = count
        self.totalBytes = totalBytes
    }

    /// Throws `StorageError.limitReached` when a report holding `count` files of `bytes` bytes
    /// may not take one more of `adding` bytes.
    public func check(holding count: Int, bytes: Int, adding: Int) throws {
        if count >= self.count {
            throw StorageError.limitReached("a report takes at most \(self.count) attachments")
        }
        if bytes + adding > totalBytes {
            throw StorageError.limitReached("a report's attachments may hold at most \(totalBytes) bytes together")
        }
    }
}
