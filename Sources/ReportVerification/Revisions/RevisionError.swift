/// Why a revision cannot be restored.
public enum RevisionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The revision existed but is older than the kept ones.
    case pruned(Int)
    /// No revision ever had this number.
    case unknown(Int)

    /// For error messages.
    public var description: String {
        switch self {
        case .pruned(let n): return "revision \(n) is no longer kept"
        case .unknown(let n): return "there is no revision \(n)"
        }
    }
}
