/// The names a layer may have: they appear in URLs (`/collections/{name}`), file names of the
/// saved area indexes and log lines, so only letters, digits, '-' and '_'.
public enum LayerName {
    public static let rule = "a layer name is 1-64 letters, digits, '-' or '_'"
    /// The same rule as an HTML `pattern`, for forms that ask for a layer name.
    public static let htmlPattern = "[A-Za-z0-9_-]{1,64}"

    public static func isValid(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 64 && s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }
}
