import Foundation

/// One kept state of an edited value.
public struct Revision<Value> {
    /// 1 for the first state, then one more per edit or restore; never reused, so a number names
    /// the same state for as long as it is kept.
    public let number: Int
    /// The state.
    public let value: Value
    /// When this state was recorded.
    public let recordedAt: Date
    /// Who recorded it (an account id, or `anonymous`).
    public let author: String
    /// The revision this one copies when it was made by a restore; nil for an edit.
    public let restoredFrom: Int?

    /// Creates a revision.
    public init(number: Int, value: Value, recordedAt: Date, author: String, restoredFrom: Int? = nil) {
        self.number = number
        self.value = value
        self.recordedAt = recordedAt
        self.author = author
        self.restoredFrom = restoredFrom
    }
}

extension Revision: Sendable where Value: Sendable {}
extension Revision: Equatable where Value: Equatable {}
extension Revision: Hashable where Value: Hashable {}
extension Revision: Encodable where Value: Encodable {}
extension Revision: Decodable where Value: Decodable {}
