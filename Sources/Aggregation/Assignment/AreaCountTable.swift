import DomainKernel

/// A table of point counts per area with an `unassigned` row: the output of a batch assignment,
/// written as RFC 4180 CSV (`area_id,count`).
public struct AreaCountTable: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public let areaID: String
        public let count: Int
    }

    /// One row per area, zeros included, in the order given.
    public let rows: [Row]
    /// Points that fell in no area.
    public let unassigned: Int

    /// Creates the table from area ids and their counts (same order, same length).
    public init(areaIDs: [String], counts: [Int], unassigned: Int) {
        precondition(areaIDs.count == counts.count, "one count per area")
        rows = zip(areaIDs, counts).map { Row(areaID: $0, count: $1) }
        self.unassigned = unassigned
    }

    /// All points counted, assigned or not.
    public var total: Int { rows.reduce(unassigned) { $0 + $1.count } }

    /// CSV text: a header, one line per area, then `unassigned`. Line ends are CRLF (RFC 4180).
    public var csv: String {
        var out = "area_id,count\r\n"
        for r in rows { out += "\(Self.field(r.areaID)),\(r.count)\r\n" }
        out += "unassigned,\(unassigned)\r\n"
        return out
    }

    /// A text field: quoted when RFC 4180 requires it (comma, quote, CR or LF), and led by an
    /// apostrophe when it starts like a spreadsheet formula (`= + - @`, tab, CR), so that an area
    /// id such as `=HYPERLINK(…)` opens as text, not as a formula (OWASP's CSV-injection advice).
    static func field(_ text: String) -> String {
        var s = text
        if let first = s.first, "=+-@\t\r".contains(first) { s = "'" + s }
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
