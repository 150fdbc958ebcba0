/// An HTML file of `Pages/Assets` with `{{name}}` placeholders, read once into its pieces. A value
/// is text, escaped where it goes, or markup the server built from escaped values; nothing else
/// is interpreted, so a template is the page as it is served, placeholders aside.
struct PageTemplate: Sendable {
    enum Value: Sendable {
        /// Escaped with `HTML.escape`.
        case text(String)
        /// Inserted as it is: fragments the server assembled, whose values it escaped.
        case markup(String)
    }

    enum Piece: Hashable, Sendable {
        case literal(String)
        case placeholder(String)
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    let pieces: [Piece]

    /// A placeholder's name is a letter followed by letters and digits; `{{` that does not start
    /// one is refused rather than served as it is, so a typo cannot reach a page.
    init(_ source: String) throws(Malformed) {
        var pieces: [Piece] = []
        var rest = source[...]
        while let open = rest.firstRange(of: "{{") {
            if open.lowerBound > rest.startIndex { pieces.append(.literal(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                throw Malformed(description: "a {{ without }} at \"\(rest[open.lowerBound...].prefix(30))\"")
            }
            let name = String(rest[open.upperBound..<close.lowerBound])
            guard let first = name.first, first.isASCII, first.isLetter, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw Malformed(description: "\"{{\(name)}}\" is not a placeholder")
            }
            pieces.append(.placeholder(name))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.literal(String(rest))) }
        self.pieces = pieces
    }

    /// A file compiled into the binary; its placeholders were checked by the tests, so a malformed
    /// one is a build that must not serve.
    init(embedded bytes: [UInt8]) {
        do {
            try self.init(String(decoding: bytes, as: UTF8.self))
        } catch {
            preconditionFailure("page template: \(error)")
        }
    }

    var placeholders: Set<String> {
        Set(pieces.compactMap { if case .placeholder(let name) = $0 { name } else { nil } })
    }

    /// The page with every placeholder filled. A placeholder without a value is a mistake of the
    /// code that fills it, not of a request: it stops the process rather than serve a half page.
    func render(_ values: [String: Value] = [:]) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let text):
                out += text
            case .placeholder(let name):
                switch values[name] {
                case .text(let text)?: out += HTML.escape(text)
                case .markup(let markup)?: out += markup
                case nil: preconditionFailure("page template: no value for {{\(name)}}")
                }
            }
        }
        return out
    }
}
