import Foundation
import Synchronization

/// A regular expression a query value must match as a whole, with the words that explain it.
/// The same source goes into the OpenAPI schema, so what the document allows is exactly what the
/// service accepts.
struct QueryPattern: Sendable, Hashable {
    /// ECMA-262-compatible source, anchored with `^…$`.
    let source: String
    /// What a matching value is, for the refusal message.
    let meaning: String

    func matches(_ text: String) -> Bool {
        // Compiled once per pattern and kept: compiling the datetime pattern (every valid date,
        // leap days included) costs far more than matching it. `NSRegularExpression` is not
        // `Sendable`, so it stays inside the lock and matching happens there; a match over a value
        // of at most a few hundred characters takes microseconds.
        Self.compiled.withLock { compiled in
            let regex: NSRegularExpression?
            if let known = compiled[source] { regex = known } else {
                regex = try? NSRegularExpression(pattern: source)
                compiled[source] = regex
            }
            return regex?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    private static let compiled = Mutex<[String: NSRegularExpression?]>([:])
}
