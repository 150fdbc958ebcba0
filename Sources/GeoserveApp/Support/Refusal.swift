/// Why the service refuses a request the caller can correct. Services and stores below the HTTP
/// layer throw refusals without knowing HTTP; `JSONErrorMiddleware` gives each kind its status,
/// and a command prints the message.
package enum RefusalKind: Sendable {
    /// Input that fails a rule of its content (422).
    case invalid
    /// A parameter that is malformed or out of range (400).
    case badParameter
    /// The state of the service does not allow it now (409).
    case conflict
    /// There is no such thing (404).
    case notFound
}

/// A refusal with a stable code for clients and a message for people.
package protocol Refusal: Error, CustomStringConvertible {
    var kind: RefusalKind { get }
    var code: String { get }
    var message: String { get }
    /// The request member or parameter at fault, when there is one.
    var field: String? { get }
}

extension Refusal {
    package var description: String { message }
}
