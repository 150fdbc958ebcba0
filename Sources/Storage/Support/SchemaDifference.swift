/// One object of a store's schema that differs from what its migrations make (a trigger planted
/// in a restored backup, an append-only trigger dropped, a function's body changed), named for
/// the operator. Both backends compare their catalog with a reference their migrations build.
public struct SchemaDifference: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable { case extra = "not made by any migration", missing = "missing", changed = "changed" }
    public let type: String
    public let name: String
    public let kind: Kind

    public init(type: String, name: String, kind: Kind) {
        self.type = type
        self.name = name
        self.kind = kind
    }

    public var description: String { "\(type) \(name): \(kind.rawValue)" }

    /// The differences between the objects found and the objects expected, both keyed by type
    /// and name with their definitions: in type and name order, extra and changed first.
    public static func between(found: [String: [String: String]], expected: [String: [String: String]]) -> [SchemaDifference] {
        var out: [SchemaDifference] = []
        for type in found.keys.sorted() {
            for (name, definition) in found[type]!.sorted(by: { $0.key < $1.key }) {
                if let wanted = expected[type]?[name] {
                    if wanted != definition { out.append(SchemaDifference(type: type, name: name, kind: .changed)) }
                } else {
                    out.append(SchemaDifference(type: type, name: name, kind: .extra))
                }
            }
        }
        for type in expected.keys.sorted() {
            for name in expected[type]!.keys.sorted() where found[type]?[name] == nil {
                out.append(SchemaDifference(type: type, name: name, kind: .missing))
            }
        }
        return out
    }
}

/// The schema could not be compared with its migrations (on PostgreSQL, a role that may not
/// create the check's reference schema): nothing was found wrong, and nothing was checked.
public struct SchemaCheckUnavailable: Error, CustomStringConvertible {
    public let reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String { "cannot compare the schema with its migrations: \(reason)" }
}
