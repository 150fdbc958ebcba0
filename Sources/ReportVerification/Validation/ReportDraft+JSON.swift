import Support

extension ReportDraft {
    /// Why a request body is not a draft. A member the draft does not know is refused (a
    /// misspelt `note` would otherwise lose what the reporter wrote); null reads as absent, as
    /// with `JSONDecoder`. Only the shape is checked here; the values are
    /// `validated(now:timeZone:)`'s business.
    public enum ReadError: Error, Equatable, Sendable {
        /// Not JSON at all.
        case notJSON(JSONParser.SyntaxError)
        /// JSON, but not an object.
        case notAnObject
        /// A member holds a value of the wrong type; the path as `witnesses[1].contact`.
        case wrongType(path: String)
        /// A member no draft has, with its path.
        case unknownMember(path: String)
    }

    /// Reads a draft from a request body. Intake does this for every report, and it costs a
    /// fraction of `JSONDecoder`; the `Codable` conformance stays for everything else, and tests
    /// hold the two to the same result.
    public init(json bytes: [UInt8]) throws(ReadError) {
        let value: JSONValue
        do throws(JSONParser.SyntaxError) { value = try JSONParser.parse(bytes) } catch { throw .notJSON(error) }
        try self.init(value: value, path: "")
    }

    /// Reads a draft from a parsed JSON value (the `report` member of an edit, for instance);
    /// `path` prefixes the paths in errors.
    public init(value: JSONValue, path: String) throws(ReadError) {
        guard case .object(let o) = value else { throw path.isEmpty ? .notAnObject : .wrongType(path: path) }
        let r = MemberReader(members: o, path: path)
        try r.refuseOthers(Members.draft)
        self.init()
        kind = try r.string("kind")
        location = try r.object("location") { l throws(ReadError) in
            try l.refuseOthers(Members.location)
            return Location(lon: try l.double("lon"), lat: try l.double("lat"), accuracyM: try l.double("accuracyM"))
        }
        area = try r.object("area") { a throws(ReadError) in
            try a.refuseOthers(Members.area)
            return AreaChoice(layer: try a.string("layer"), id: try a.string("id"))
        }
        affiliation = try r.string("affiliation")
        age = try r.int("age")
        phone = try r.string("phone")
        testDate = try r.string("testDate")
        lastOnCampus = try r.string("lastOnCampus")
        diagnosis = try r.string("diagnosis")
        notes = try r.string("notes")
        occurredAt = try r.string("occurredAt")
        officerName = try r.string("officerName")
        badgeNumber = try r.string("badgeNumber")
        officerDescription = try r.string("officerDescription")
        incidentDescription = try r.string("incidentDescription")
        witnesses = try r.array("witnesses") { element, path throws(ReadError) in
            guard case .object(let w) = element else { throw .wrongType(path: path) }
            let m = MemberReader(members: w, path: path)
            try m.refuseOthers(Members.witness)
            return WitnessDraft(contact: try m.string("contact"), statement: try m.string("statement"))
        }
        victim = try r.object("victim") { v throws(ReadError) in
            try v.refuseOthers(Members.victim)
            return VictimDraft(race: try v.string("race"), gender: try v.string("gender"), comments: try v.string("comments"))
        }
        attachments = try r.array("attachments") { element, path throws(ReadError) in
            guard case .string(let s) = element else { throw .wrongType(path: path) }
            return s
        }
        anonymous = try r.bool("anonymous")
    }
}

/// The members each object of a draft takes, built once: intake reads every report through them.
private enum Members {
    static let draft: Set<String> = ["kind", "location", "area", "affiliation", "age", "phone", "testDate", "lastOnCampus", "diagnosis",
                                     "notes", "occurredAt", "officerName", "badgeNumber", "officerDescription", "incidentDescription",
                                     "witnesses", "victim", "attachments", "anonymous"]
    static let location: Set<String> = ["lon", "lat", "accuracyM"]
    static let area: Set<String> = ["layer", "id"]
    static let witness: Set<String> = ["contact", "statement"]
    static let victim: Set<String> = ["race", "gender", "comments"]
}

/// Typed, optional members of one JSON object, with the path for errors.
private struct MemberReader {
    let members: [String: JSONValue]
    let path: String

    private func at(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Refuses the first member (in name order) that is not one of `known`.
    func refuseOthers(_ known: Set<String>) throws(ReportDraft.ReadError) {
        // The common case, every member known, allocates nothing.
        guard members.keys.contains(where: { !known.contains($0) }) else { return }
        if let unknown = members.keys.filter({ !known.contains($0) }).min() { throw .unknownMember(path: at(unknown)) }
    }

    /// The member, nil when absent or null.
    private func member(_ key: String) -> JSONValue? {
        guard let v = members[key], v != .null else { return nil }
        return v
    }

    func string(_ key: String) throws(ReportDraft.ReadError) -> String? {
        guard let v = member(key) else { return nil }
        guard case .string(let s) = v else { throw .wrongType(path: at(key)) }
        return s
    }

    func double(_ key: String) throws(ReportDraft.ReadError) -> Double? {
        guard let v = member(key) else { return nil }
        guard case .number(let d) = v else { throw .wrongType(path: at(key)) }
        return d
    }

    func int(_ key: String) throws(ReportDraft.ReadError) -> Int? {
        guard let v = member(key) else { return nil }
        guard case .number(let d) = v, d == d.rounded(), let n = Int(exactly: d) else { throw .wrongType(path: at(key)) }
        return n
    }

    func bool(_ key: String) throws(ReportDraft.ReadError) -> Bool? {
        guard let v = member(key) else { return nil }
        guard case .bool(let b) = v else { throw .wrongType(path: at(key)) }
        return b
    }

    func object<T>(_ key: String, _ read: (MemberReader) throws(ReportDraft.ReadError) -> T) throws(ReportDraft.ReadError) -> T? {
        guard let v = member(key) else { return nil }
        guard case .object(let o) = v else { throw .wrongType(path: at(key)) }
        return try read(MemberReader(members: o, path: at(key)))
    }

    func array<T>(_ key: String, _ read: (JSONValue, String) throws(ReportDraft.ReadError) -> T) throws(ReportDraft.ReadError) -> [T]? {
        guard let v = member(key) else { return nil }
        guard case .array(let elements) = v else { throw .wrongType(path: at(key)) }
        var out: [T] = []
        out.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() { out.append(try read(element, at(key) + "[\(i)]")) }
        return out
    }
}
