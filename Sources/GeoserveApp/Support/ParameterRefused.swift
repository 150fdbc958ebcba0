/// A parameter that is malformed or out of range, found by a service rather than by the query
/// table (a range too long for an export, a bucket count over the limit).
struct ParameterRefused: Refusal, Equatable {
    let message: String
    let field: String?

    init(_ message: String, field: String) {
        self.message = message
        self.field = field
    }

    var kind: RefusalKind { .badParameter }
    var code: String { "bad_parameter" }
}
