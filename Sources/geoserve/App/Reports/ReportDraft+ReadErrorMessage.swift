import ReportVerification

extension ReportDraft.ReadError {
    /// In the words `JSONErrorMiddleware` uses for `JSONDecoder`'s errors, naming the member but
    /// never echoing the submitted value.
    var message: String {
        switch self {
        case .notJSON: return "the body is not valid JSON"
        case .notAnObject: return "the body is not the expected JSON object"
        case .wrongType(let path): return "member \"\(path)\" has the wrong type"
        }
    }
}
