import DomainKernel

/// One declared query parameter: its name, what it holds with its limits, its default and its
/// description. The same value parses requests, words the `400 bad_parameter` answer and writes
/// the parameter into the OpenAPI document, so the three cannot disagree.
struct QueryParameter: Sendable, Hashable {
    /// What a parameter holds.
    enum Kind: Sendable, Hashable {
        /// A whole number; below the range is refused, above it is clamped when `clampsAbove`
        /// (OGC API – Features clamps `limit`), refused otherwise.
        case integer(ClosedRange<Int>, clampsAbove: Bool)
        /// A finite number in a range.
        case number(ClosedRange<Double>)
        /// One of fixed words.
        case choice([String])
        /// Comma-separated words, each one of fixed words.
        case choices([String])
        /// A calendar date `YYYY-MM-DD`.
        case date
        /// `true` or `false`.
        case boolean
        /// Comma-separated finite numbers, as many as the range allows.
        case numbers(ClosedRange<Int>)
        /// Free text up to a length (names, ids).
        case text(maxLength: Int)
        /// Text of a fixed shape (cursors, OGC datetime expressions): what the pattern matches,
        /// nothing else — the schema carries the same pattern.
        case pattern(QueryPattern, maxLength: Int)
        /// An OGC bounding box: `minLon,minLat,maxLon,maxLat` or the six-number form with heights,
        /// longitudes within ±180 and latitudes within ±90.
        case bbox
    }

    let name: String
    let kind: Kind
    /// The value used when the parameter is absent, as written in a URL; nil for none.
    var defaultValue: String?
    var required = false
    let description: String
    /// Extra JSON Schema members for the document (a pattern, an example).
    var schemaExtras: [String: SchemaValue] = [:]

    init(_ name: String, _ kind: Kind, default defaultValue: String? = nil, required: Bool = false, _ description: String,
         schema extras: [String: SchemaValue] = [:]) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.required = required
        self.description = description
        self.schemaExtras = extras
    }

    /// What a valid value looks like, for the refusal message.
    var rule: String {
        switch kind {
        case .integer(let r, let clamps):
            clamps ? "\(name) must be a whole number of at least \(r.lowerBound) (values above \(r.upperBound) count as \(r.upperBound))"
                : "\(name) must be a whole number from \(r.lowerBound) to \(r.upperBound)"
        case .number(let r): "\(name) must be a number from \(SchemaValue.text(r.lowerBound)) to \(SchemaValue.text(r.upperBound))"
        case .choice(let words): "\(name) must be \(Self.oneOf(words))"
        case .choices(let words): "\(name) must be a comma-separated list of \(Self.oneOf(words))"
        case .date: "\(name) must be a date YYYY-MM-DD"
        case .boolean: "\(name) must be true or false"
        case .numbers(let count):
            count.lowerBound == count.upperBound ? "\(name) must be \(count.lowerBound) comma-separated numbers"
                : "\(name) must be \(count.lowerBound) to \(count.upperBound) comma-separated numbers"
        case .text(let max): "\(name) must be at most \(max) characters"
        case .pattern(let p, _): "\(name) must be \(p.meaning)"
        case .bbox: "\(name) must be minLon,minLat,maxLon,maxLat (or six numbers with heights), longitudes within ±180, latitudes within ±90"
        }
    }

    private static func oneOf(_ words: [String]) -> String {
        words.count <= 2 ? words.joined(separator: " or ") : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// The refusal of a bad value: the same status, code and wording on every route.
    var refusal: APIError { APIError.badParameter(rule, field: name) }
}
