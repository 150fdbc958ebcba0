import Foundation
import ReportVerification
import Support
import Testing

@Suite("reading drafts from request bodies")
struct DraftReadingTests {
    static func text(_ g: inout SeededRandom) -> String? {
        Int.random(in: 0...3, using: &g) == 0 ? nil : StoredJSONTests.text(&g)
    }

    static func draft(_ g: inout SeededRandom) -> ReportDraft {
        var d = ReportDraft()
        d.kind = [nil, "covid", "misconduct", "other"].randomElement(using: &g)!
        if Bool.random(using: &g) {
            d.location = .init(lon: Bool.random(using: &g) ? Double.random(in: -200...200, using: &g) : nil,
                               lat: Bool.random(using: &g) ? Double.random(in: -100...100, using: &g) : nil,
                               accuracyM: Bool.random(using: &g) ? Double(Int.random(in: -5...900, using: &g)) : nil)
        }
        if Bool.random(using: &g) { d.area = .init(layer: text(&g), id: text(&g)) }
        d.affiliation = text(&g)
        d.age = Bool.random(using: &g) ? Int.random(in: -5...200, using: &g) : nil
        d.phone = text(&g)
        d.testDate = text(&g)
        d.lastOnCampus = text(&g)
        d.diagnosis = text(&g)
        d.notes = text(&g)
        d.occurredAt = text(&g)
        d.officerName = text(&g)
        d.badgeNumber = text(&g)
        d.officerDescription = text(&g)
        d.incidentDescription = text(&g)
        if Bool.random(using: &g) { d.witnesses = (0..<Int.random(in: 0...3, using: &g)).map { _ in .init(contact: text(&g), statement: text(&g)) } }
        if Bool.random(using: &g) { d.victim = .init(race: text(&g), gender: text(&g), comments: text(&g)) }
        if Bool.random(using: &g) { d.attachments = (0..<Int.random(in: 0...3, using: &g)).map { _ in StoredJSONTests.text(&g) } }
        d.anonymous = Bool.random(using: &g) ? Bool.random(using: &g) : nil
        return d
    }

    /// Where `JSONDecoder` says the problem is, written as `ReadError` writes paths.
    static func path(_ error: DecodingError) -> String? {
        let ctx: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): ctx = c
        case .keyNotFound(_, let c): ctx = c
        @unknown default: return nil
        }
        return ctx.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }

    @Test("bodies read as JSONDecoder reads them, nulls included; an unknown member at any depth is refused with its path")
    func agreesWithDecoder() throws {
        var g = SeededRandom(seed: 42)
        for _ in 0..<400 {
            let draft = Self.draft(&g)
            guard case .object(var members) = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(draft)) else {
                Issue.record("a draft encodes as an object")
                return
            }
            // Explicit nulls are absent, for both readers.
            if members["notes"] == nil { members["notes"] = .null }
            let body = try JSONEncoder().encode(JSONValue.object(members))
            let expected = try JSONDecoder().decode(ReportDraft.self, from: body)
            #expect(try ReportDraft(json: Array(body)) == expected)
            // A member no draft has is refused — at the top and inside nested objects — instead of
            // silently losing what the client meant.
            members["note"] = .string("misspelt")
            #expect(throws: ReportDraft.ReadError.unknownMember(path: "note")) { try ReportDraft(json: Array(try JSONEncoder().encode(JSONValue.object(members)))) }
            members["note"] = nil
            if case .object(var location)? = members["location"] {
                location["altitude"] = .number(3)
                members["location"] = .object(location)
                #expect(throws: ReportDraft.ReadError.unknownMember(path: "location.altitude")) {
                    try ReportDraft(json: Array(try JSONEncoder().encode(JSONValue.object(members))))
                }
            }
        }
    }

    @Test("a member of the wrong type is named with the path JSONDecoder gives")
    func wrongTypes() throws {
        let base = #"{"kind":"misconduct","location":{"lon":1,"lat":2},"witnesses":[{"contact":"a"},{"statement":"b"}],"victim":{"race":"x"},"attachments":["a"],"age":3,"anonymous":true}"#
        let cases: [(replace: String, with: String, path: String)] = [
            (#""kind":"misconduct""#, #""kind":1"#, "kind"),
            (#""lon":1"#, #""lon":"1""#, "location.lon"),
            (#""location":{"lon":1,"lat":2}"#, #""location":[1,2]"#, "location"),
            (#"{"statement":"b"}"#, #"{"statement":false}"#, "witnesses[1].statement"),
            (#"[{"contact":"a"},{"statement":"b"}]"#, #"[{"contact":"a"},"b"]"#, "witnesses[1]"),
            (#""race":"x""#, #""race":{}"#, "victim.race"),
            (#"["a"]"#, #"["a",null]"#, "attachments[1]"),
            (#""age":3"#, #""age":3.5"#, "age"),
            (#""anonymous":true"#, #""anonymous":"yes""#, "anonymous"),
        ]
        for c in cases {
            let body = Data(base.replacingOccurrences(of: c.replace, with: c.with).utf8)
            #expect(throws: ReportDraft.ReadError.wrongType(path: c.path)) { try ReportDraft(json: Array(body)) }
            do {
                _ = try JSONDecoder().decode(ReportDraft.self, from: body)
                Issue.record("JSONDecoder read \(c.with)")
            } catch let e as DecodingError {
                // JSONDecoder reports a fractional number for an Int without a path; ours names the member.
                if c.path != "age" { #expect(Self.path(e) == c.path) }
            }
        }
        #expect(try ReportDraft(json: Array(base.utf8)) == JSONDecoder().decode(ReportDraft.self, from: Data(base.utf8)))
    }

    @Test("a body that is not JSON, or not an object, is told apart")
    func notADraft() {
        #expect(throws: ReportDraft.ReadError.notAnObject) { try ReportDraft(json: Array("[1]".utf8)) }
        #expect(throws: ReportDraft.ReadError.notAnObject) { try ReportDraft(json: Array("\"report\"".utf8)) }
        #expect {
            try ReportDraft(json: Array(#"{"kind":"covid""#.utf8))
        } throws: { error in
            if case .notJSON = error as? ReportDraft.ReadError { return true }
            return false
        }
    }
}
