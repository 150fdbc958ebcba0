/// A reference to an uploaded video or photo. Reports carry ids only: the files are uploaded and
/// stored separately, so a report stays small and can be read without touching evidence files.
public struct AttachmentID: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The attachment's id as the upload returned it.
    public let rawValue: String

    /// Wraps an id.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The id itself.
    public var description: String { rawValue }

    /// Decodes from a plain JSON string, so payloads read `"attachments": ["a1", "a2"]`.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes as a plain JSON string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
