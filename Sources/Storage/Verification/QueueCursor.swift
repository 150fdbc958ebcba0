import DomainKernel
import Foundation
import Support

/// Position in the verification queue: status rank, submission time (stored text), id. Encoded
/// so clients treat it as opaque.
public struct QueueCursor: Sendable, Equatable {
    public let rank: Int
    public let submittedAt: String
    public let id: String

    public init(rank: Int, submittedAt: String, id: String) {
        self.rank = rank
        self.submittedAt = submittedAt
        self.id = id
    }

    /// Reads an encoded cursor, `rank.submittedAt.id` with the last two in URL-safe base64; nil
    /// when it is not one. Any decodable parts make a cursor: it is only a position to continue
    /// from, so a made-up one just starts somewhere.
    public init?(_ encoded: String) {
        let parts = encoded.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let rank = Int(parts[0]), rank >= 0,
              let time = Data(base64URLEncoded: String(parts[1])), let id = Data(base64URLEncoded: String(parts[2])) else { return nil }
        self.init(rank: rank, submittedAt: String(decoding: time, as: UTF8.self), id: String(decoding: id, as: UTF8.self))
    }

    public var encoded: String {
        "\(rank).\(Data(submittedAt.utf8).base64URLEncoded).\(Data(id.utf8).base64URLEncoded)"
    }
}
