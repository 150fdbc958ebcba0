import Foundation
import GeoCore

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

    /// Reads an encoded cursor; nil when it is not one.
    public init?(_ encoded: String) {
        guard let data = Data(base64URLEncoded: encoded) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: "|", maxSplits: 2).map(String.init)
        guard parts.count == 3, let rank = Int(parts[0]) else { return nil }
        self.init(rank: rank, submittedAt: parts[1], id: parts[2])
    }

    public var encoded: String {
        Data("\(rank)|\(submittedAt)|\(id)".utf8).base64URLEncoded
    }
}
