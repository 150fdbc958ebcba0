/// Comparisons of secrets (tokens, signatures) whose time does not depend on where they differ,
/// so a caller cannot learn a secret byte by byte from how fast it is refused.
public enum ConstantTime {
    /// Whether the two strings hold the same bytes; only their lengths leak.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
