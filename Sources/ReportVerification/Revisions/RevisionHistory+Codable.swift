/// The JSON keys of a history; outside the generic type so both conformances can share them.
private enum Key: String, CodingKey { case limit, revisions }

extension RevisionHistory: Encodable where Value: Encodable {
    /// Encodes `{"limit": n, "revisions": [...]}`, oldest first.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(limit, forKey: .limit)
        try c.encode(revisions, forKey: .revisions)
    }
}

extension RevisionHistory: Decodable where Value: Decodable {
    /// Decodes and checks the invariants, because every method relies on them (a gap in the
    /// numbers would make `revision(_:)` return the wrong state).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let limit = try c.decode(Int.self, forKey: .limit)
        let revisions = try c.decode([Revision<Value>].self, forKey: .revisions)
        func corrupt(_ why: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: c.codingPath, debugDescription: why))
        }
        guard limit >= 1 else { throw corrupt("limit must be at least 1") }
        guard let first = revisions.first else { throw corrupt("a history holds at least one revision") }
        guard revisions.count <= limit else { throw corrupt("more revisions than the limit") }
        guard first.number >= 1 else { throw corrupt("revision numbers start at 1") }
        for (offset, r) in revisions.enumerated() {
            guard r.number == first.number + offset else { throw corrupt("revision numbers must be consecutive") }
            if let source = r.restoredFrom, !(1..<r.number).contains(source) {
                throw corrupt("revision \(r.number) restores a revision that is not older")
            }
        }
        self.init(checkedLimit: limit, revisions: revisions)
    }
}
