import ReportVerification
import Support

extension ReportDraft.ReadError {
    /// In the words `JSONErrorMiddleware` uses for `JSONDecoder`'s errors, naming the member but
    /// never echoing the submitted value.
    var message: String {
        switch self {
        case .notJSON(let e) where e.isTooDeep: return "the body nests objects and arrays deeper than \(JSONParser.maxDepth) levels"
        case .notJSON(let e) where e.duplicateMember != nil: return APIError.duplicateMember(e.duplicateMember ?? "").message
        case .notJSON: return "the body is not valid JSON"
        case .notAnObject: return "the body is not the expected JSON object"
        case .wrongType(let path): return "member \"\(path)\" has the wrong type"
        case .unknownMember(let path): return APIError.unknownMember(path).message
        }
    }

    /// The member the error is about, when there is one.
    var field: String? {
        switch self {
        case .notJSON(let e): e.duplicateMember
        case .notAnObject: nil
        case .wrongType(let path), .unknownMember(let path): path
        }
    }
}
