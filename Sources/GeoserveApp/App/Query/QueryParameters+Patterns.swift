extension QueryParameters {
    /// The shapes of the parameters that are more than a word or a number.
    enum Patterns {
        /// URL-safe base64 without padding, as this service writes it: never a length that
        /// leaves a single character over.
        static let base64URL = "(([A-Za-z0-9_-]{4})+|([A-Za-z0-9_-]{4})*[A-Za-z0-9_-]{2,3})"

        /// A calendar date that exists (leap days included), as a regular expression: the
        /// document then describes exactly the dates the service accepts.
        static let date = [
            "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])",
            "[0-9]{4}-(0[13-9]|1[0-2])-(29|30)",
            "[0-9]{4}-(0[13578]|1[02])-31",
            "([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)-02-29",
        ].map { "(\($0))" }.joined(separator: "|")

        /// An RFC 3339 date or date-time, or an interval of them with `..` (or nothing) for an open end.
        static let datetime: QueryPattern = {
            let time = "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
            let instant = "(\(date))([Tt]\(time))?"
            return QueryPattern(source: "^(\(instant)|(\(instant)|\\.\\.)?/(\(instant)|\\.\\.)?)$",
                                meaning: "an RFC 3339 date or date-time, or an interval start/end with '..' for an open end")
        }()

        /// A features page cursor: `a.` (after) or `b.` (before) and an area id in URL-safe base64.
        static let pageCursor = QueryPattern(source: "^[ab]\\.\(base64URL)$", meaning: "a cursor from a next or prev link")

        /// A queue cursor: status rank, then submission time and report id in URL-safe base64.
        static let queueCursor = QueryPattern(source: "^[0-9]{1,3}\\.\(base64URL)\\.\(base64URL)$",
                                              meaning: "a cursor from the previous page's next")
    }
}
