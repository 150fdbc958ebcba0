import DomainKernel
import HTTPTypes
import ReportVerification
import Foundation
import Storage

// The one place where the refusals of the layers below HTTP get their status and shape.

extension APIError {
    init(_ refusal: any Refusal) {
        let status: HTTPResponse.Status = switch refusal.kind {
        case .invalid: .unprocessableContent
        case .badParameter: .badRequest
        case .conflict: .conflict
        case .notFound: .notFound
        }
        self.init(status: status, code: refusal.code, message: refusal.message, field: refusal.field)
    }

    /// The refusals the store decides inside its transactions, and the services' that carry more
    /// than a `Refusal` says; nil for any other error.
    init?(storeRefusal error: any Error) {
        switch error {
        case let e as LoginThrottle.Throttled:
            self = .rateLimited("too many failed logins; try again later", retryAfter: e.retryAfter)
        case let e as ReportChangeError:
            self = e.apiError
        case let e as ResubmissionTooSoon:
            let day = e.opens.formatted(.iso8601)
            self.init(status: .conflict, code: "too_soon", message: "one COVID self-report per 14 days; the next is possible from \(day)",
                      nextAllowed: day)
        case is IdempotencyKeyReused:
            self.init(status: .unprocessableContent, code: "idempotency_key_reused",
                      message: "this Idempotency-Key was used for a different request; send a new key with a new report", field: "Idempotency-Key")
        default:
            return nil
        }
    }
}

extension ReportChangeError {
    /// The API's answer to a refused change.
    var apiError: APIError {
        switch self {
        case .notFound:
            return .notFound("no such report")
        case .ownReport:
            return APIError(status: .forbidden, code: "own_report", message: "a report is reviewed by someone other than its reporter")
        case .transition(.reasonRequired(let t), _):
            return .invalid("\(t.rawValue) needs a reason", field: "reason")
        case .transition(.notAllowed(let t, let from), _):
            return APIError(status: .conflict, code: "invalid_transition", message: "cannot \(t.rawValue) a report that is \(from.rawValue)",
                            field: nil, current: from.rawValue)
        case .notEditable(let status):
            return APIError(status: .conflict, code: "not_editable", message: "a reporter edits only while the report is pending",
                            current: status.rawValue)
        case .staleVersion(let v, let status):
            return APIError(status: .conflict, code: "stale_version", message: "the report changed (now version \(v), \(status.rawValue)); reload it",
                            field: "version", current: status.rawValue)
        }
    }
}
