import DomainKernel
import Foundation

/// Collects problems while checking a draft's fields one by one. Each check returns the clean
/// value, or nil after recording why there is none, so that callers can go on checking the
/// other fields and report everything at once.
struct DraftValidator {
    /// The present, passed in so that "not in the future" is deterministic under test.
    let now: Date
    /// The campus calendar: "today" and a date's day are the campus's.
    let calendar: Calendar
    /// What was found so far, in checking order.
    private(set) var problems: [FieldProblem] = []

    init(now: Date, timeZone: TimeZone) {
        self.now = now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    mutating func fail(_ field: String, _ code: FieldProblem.Code, _ reason: String) {
        problems.append(FieldProblem(field: field, code: code, reason: reason))
    }

    /// Trimmed text within a length. Blank counts as absent, because an empty form field is
    /// what a client sends for "not filled in". Control and text-direction characters are
    /// refused (`HiddenCharacters`), as alerts refuse them: a verifier must read a report as it
    /// was typed; `multiline` text keeps its line breaks and tabs.
    mutating func text(_ field: String, _ value: String?, max: Int, required: Bool = false, multiline: Bool = false) -> String? {
        guard let trimmed = value.map(trimmingWhitespace), !trimmed.isEmpty else {
            if required { fail(field, .required, "is required") }
            return nil
        }
        guard trimmed.count <= max else {
            fail(field, .tooLong, "must be at most \(max) characters")
            return nil
        }
        if let bad = HiddenCharacters.first(in: trimmed, multiline: multiline) {
            fail(field, .badFormat, "must not hold control or text-direction characters (found U+\(String(bad.value, radix: 16, uppercase: true)))")
            return nil
        }
        return trimmed
    }

    /// One value of a closed set. Matching ignores case, since menus and hand-written clients
    /// disagree on capitals but never on meaning.
    mutating func choice<E: RawRepresentable & CaseIterable>(_ field: String, _ value: String?, required: Bool) -> E?
    where E.RawValue == String {
        guard let raw = text(field, value, max: ReportLimits.idText, required: required) else { return nil }
        guard let parsed = E(rawValue: raw.lowercased()) else {
            fail(field, .notOneOf, "must be one of " + E.allCases.map(\.rawValue).joined(separator: ", "))
            return nil
        }
        return parsed
    }

    /// Records a list that is longer than its limit; callers check only the first `max` entries,
    /// which keeps the problem list bounded whatever a client sends.
    mutating func count(_ field: String, _ count: Int, max: Int, noun: String) {
        if count > max { fail(field, .tooMany, "must have at most \(max) \(noun)") }
    }

    /// Records every field of the other report kind that was given. A covid draft carrying a
    /// witness statement is a client bug; dropping it silently would lose what someone wrote.
    mutating func notApplicable(_ given: [(field: String, isGiven: Bool)], to kind: ReportKind) {
        for (field, isGiven) in given where isGiven {
            fail(field, .notApplicable, "is not a field of a \(kind.rawValue) report")
        }
    }
}

/// Whether an optional draft value counts as given: blanks and empty lists do not, matching
/// `DraftValidator.text`'s reading of blank as absent.
func isGiven(_ value: String?) -> Bool {
    !(value?.allSatisfy(\.isWhitespace) ?? true)
}

/// Whether an optional list counts as given (present and non-empty).
func isGiven<T>(_ value: [T]?) -> Bool {
    !(value?.isEmpty ?? true)
}

/// `s` without leading and trailing white space, as `trimmingCharacters(in: .whitespacesAndNewlines)`
/// trims it, but without bridging to `NSString`, and without a copy when there is nothing to trim.
func trimmingWhitespace(_ s: String) -> String {
    let scalars = s.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !isTrimmed($0) })!
    if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return s }
    return String(scalars[first...last])
}

/// Whether trimming removes the scalar: Unicode's `White_Space` and the zero width space, which
/// is the set `CharacterSet.whitespacesAndNewlines` holds.
func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar.value == 0x200B
}
