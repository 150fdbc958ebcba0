import DomainKernel

/// A number as it may be shown: the value, or the fact that it is withheld. A value withheld
/// because it is small and one withheld to protect another look the same.
public enum Released<Value: Sendable & Hashable>: Sendable, Hashable {
    case value(Value)
    case suppressed

    /// The value, or nil when suppressed.
    public var value: Value? {
        if case .value(let v) = self { v } else { nil }
    }

    /// Whether the value is withheld.
    public var isSuppressed: Bool { value == nil }

    /// Applies `transform` to a shown value; a suppressed value stays suppressed.
    public func map<T: Sendable & Hashable>(_ transform: (Value) -> T) -> Released<T> {
        switch self {
        case .value(let v): .value(transform(v))
        case .suppressed: .suppressed
        }
    }
}

/// JSON: the number itself, or `null` for a suppressed one (the enclosing object lists which
/// fields are suppressed, so `null` is never ambiguous).
extension Released: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .value(let v): try container.encode(v)
        case .suppressed: try container.encodeNil()
        }
    }
}

extension Released: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .suppressed : .value(try container.decode(Value.self))
    }
}
