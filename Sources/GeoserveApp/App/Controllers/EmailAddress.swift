/// A light plausibility check: one @, something on both sides, a dot in the domain, no spaces.
package enum EmailAddress {
    /// The same rule as a regular expression, for the OpenAPI document.
    static let pattern = "^[^@\\s]+@[^@\\s.][^@\\s]*\\.[^@\\s]*[^@\\s.]$"

    package static func isPlausible(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".")
            && !parts[1].hasSuffix(".") && !s.contains(where: \.isWhitespace) && s.count <= 254
    }
}
