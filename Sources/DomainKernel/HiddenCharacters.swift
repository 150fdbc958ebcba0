/// Characters that change how text reads without being seen: C0 and C1 controls (line breaks and
/// tabs allowed where text has lines), and the bidi embeddings, overrides and isolates
/// (U+202A–U+202E, U+2066–U+2069). Text people write for others — a report a verifier reads, an
/// alert the campus reads — must read as it was typed, not reversed by an invisible U+202E.
public enum HiddenCharacters {
    /// Whether `scalar` is one of them; `multiline`: line feeds, carriage returns and tabs are
    /// allowed.
    public static func contains(_ scalar: Unicode.Scalar, multiline: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09, 0x0D: return !multiline
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The first of them in `text`, nil when there is none.
    public static func first(in text: String, multiline: Bool) -> Unicode.Scalar? {
        text.unicodeScalars.first { contains($0, multiline: multiline) }
    }
}
