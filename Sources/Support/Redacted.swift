/// A value that holds a secret and describes itself without it: `String(describing:)`,
/// `debugPrint`, string interpolation in a log line and `Mirror` (which the service lifecycle
/// uses to describe its services at debug and trace level) all see only the type's name and the
/// words `redacted`. Before, a service group started at trace level logged the webhook
/// dispatcher with the installation's secret, every endpoint's secret and the receivers' URLs.
public protocol RedactedDescription: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension RedactedDescription {
    public var description: String { "\(Self.self)(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [("redacted", "holds secrets")]) }
}
