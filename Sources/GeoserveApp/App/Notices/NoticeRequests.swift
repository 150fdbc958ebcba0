import DomainKernel
import Foundation
import HTTPTypes
import ReportVerification
import Storage

/// An alert as an admin sends it (`POST` creates, `PUT` replaces): checked into `AlertContent`,
/// every problem at once, the way report drafts are.
struct AlertRequest: StrictRequestBody {
    static let members: Set<String> = ["title", "message", "severity", "startsAt", "endsAt"]
    static let maxTitle = 120
    static let maxMessage = 2000

    let title: String?
    let message: String?
    let severity: String?
    let startsAt: String?
    let endsAt: String?

    /// The checked content; `startsAt` defaults to `now`.
    func content(now: Date) throws -> AlertContent {
        var check = NoticeCheck()
        let title = check.text("title", title, max: Self.maxTitle, required: true)
        let message = check.text("message", message, max: Self.maxMessage, required: false, multiline: true) ?? ""
        let severity = check.choice("severity", severity ?? AlertSeverity.info.rawValue, AlertSeverity.self)
        let problemsBefore = check.problems.count
        let starts = check.instant("startsAt", startsAt)
        let startKnown = check.problems.count == problemsBefore
        let ends = check.instant("endsAt", endsAt)
        // Ordered only against a start that was read: a wrong start is its own problem.
        if let ends, startKnown, ends <= starts ?? now { check.fail("endsAt", .conflicting, "must be after startsAt") }
        try check.finish()
        return AlertContent(title: title!, message: message, severity: severity!, startsAt: starts ?? now, endsAt: ends)
    }
}

/// A resource as an admin sends it: a title, a category and an http(s) link.
struct ResourceRequest: StrictRequestBody {
    static let members: Set<String> = ["title", "category", "link"]
    static let maxTitle = 120
    static let maxCategory = 60
    static let maxLink = 2048
    /// An http(s) address in the characters RFC 3986 allows: a host in another script is given
    /// in its ASCII (punycode) form, anything else percent-encoded, as browsers show links.
    static let linkPattern = "^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9._~:/?#\\[\\]@!$&'()*+,;=%-]+$"

    let title: String?
    let category: String?
    let link: String?

    func content() throws -> ResourceContent {
        var check = NoticeCheck()
        let title = check.text("title", title, max: Self.maxTitle, required: true)
        let category = check.text("category", category, max: Self.maxCategory, required: true)
        let link = check.link("link", link, max: Self.maxLink)
        try check.finish()
        return ResourceContent(title: title!, category: category!, link: link!)
    }
}

/// Collects the problems of one notice request, with the codes report drafts use, so that a
/// form shows each next to its field.
struct NoticeCheck {
    private(set) var problems: [FieldProblem] = []

    mutating func fail(_ field: String, _ code: FieldProblem.Code, _ reason: String) {
        problems.append(FieldProblem(field: field, code: code, reason: reason))
    }

    /// Text with something visible in it, at most `max` characters (Unicode scalars, as JSON
    /// Schema's `maxLength` counts), kept as written apart from surrounding blanks. Control
    /// characters are refused (a message keeps its line breaks and tabs), and so are the bidi
    /// embeddings, overrides and isolates: a title shown to the whole campus must read as it was
    /// typed, not reversed by an invisible U+202E.
    mutating func text(_ field: String, _ value: String?, max: Int, required: Bool, multiline: Bool = false) -> String? {
        guard let value else {
            if required { fail(field, .required, "is required") }
            return nil
        }
        guard value.unicodeScalars.count <= max else {
            fail(field, .tooLong, "must have at most \(max) characters")
            return nil
        }
        if let bad = HiddenCharacters.first(in: value, multiline: multiline) {
            fail(field, .badFormat, "must not hold control or text-direction characters (found U+\(String(bad.value, radix: 16, uppercase: true)))")
            return nil
        }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            if required { fail(field, .required, "must not be blank") }
            return nil
        }
        return trimmed
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ field: String, _ value: String, _ type: T.Type) -> T? where T.RawValue == String {
        guard let chosen = T(rawValue: value) else {
            fail(field, .notOneOf, "must be one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
            return nil
        }
        return chosen
    }

    /// An RFC 3339 date-time with a zone; nil when absent or wrong (and then a problem).
    mutating func instant(_ field: String, _ value: String?) -> Date? {
        guard let value else { return nil }
        do { return try Instant.parse(value).date } catch {
            fail(field, .badFormat, "must be an RFC 3339 date-time with a zone, such as 2026-11-20T21:15:00Z")
            return nil
        }
    }

    /// An absolute http or https URL (RFC 3986 characters only, percent signs followed by two
    /// hex digits) with a host and no user name or password in it (which would let a link show
    /// one site's name and open another's page).
    mutating func link(_ field: String, _ value: String?, max: Int) -> String? {
        guard let text = text(field, value, max: max, required: true) else { return nil }
        guard text.unicodeScalars.allSatisfy(Self.uriCharacters.contains), Self.percentEncodingIsWhole(text),
              let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.user == nil, url.password == nil else {
            fail(field, .badFormat, "must be an http or https address, such as https://www.cdc.gov/")
            return nil
        }
        return text
    }

    private static let uriCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")

    private static func percentEncodingIsWhole(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "%") {
            guard i + 2 < bytes.count, bytes[i + 1].isHexDigit, bytes[i + 2].isHexDigit else { return false }
        }
        return true
    }

    /// Throws the collected problems as one `422 invalid`.
    func finish() throws {
        guard let first = problems.first else { return }
        throw APIError(status: .unprocessableContent, code: "invalid", message: problems.map(\.description).joined(separator: "; "),
                       field: first.field, problems: problems)
    }
}

private extension UInt8 {
    var isHexDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
