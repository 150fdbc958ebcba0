import Foundation

/// A regular expression a query value must match as a whole, with the words that explain it.
/// The same source goes into the OpenAPI schema, so what the document allows is exactly what the
/// service accepts.
struct QueryPattern: Sendable, Hashable {
    /// ECMA-262-compatible source, anchored with `^…$`.
    let source: String
    /// What a matching value is, for the refusal message.
    let meaning: String

    func matches(_ text: String) -> Bool {
        // NSRegularExpression is not Sendable; compiling per call costs microseconds on values of
        // at most a few hundred characters, and only requests that send the parameter pay it.
        guard let regex = try? NSRegularExpression(pattern: source) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
