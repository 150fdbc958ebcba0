import Foundation
import ReportVerification
import Support

/// Shared inputs: a fixed present, the campus zone, and one valid draft of each kind.
enum Fixtures {
    /// 2026-11-18T11:06:40Z.
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let utc = TimeZone(identifier: "UTC")!
    static let day: TimeInterval = 24 * 3600

    static func covid() -> ReportDraft {
        var d = ReportDraft()
        d.kind = "covid"
        d.affiliation = "student"
        d.phone = "+1 (336) 555-0142"
        d.testDate = "2026-11-17"
        d.lastOnCampus = "2026-11-16"
        d.area = .init(layer: "halls", id: "H07")
        return d
    }

    static func misconduct() -> ReportDraft {
        var d = ReportDraft()
        d.kind = "misconduct"
        d.occurredAt = "2026-11-17T22:40:00Z"
        d.location = .init(lon: -87.61, lat: 41.79, accuracyM: 12)
        d.officerName = "J. Doe"
        d.badgeNumber = "4711"
        d.officerDescription = "tall, grey uniform"
        d.incidentDescription = "stopped without reason"
        d.witnesses = [.init(contact: "555-0100", statement: "saw it")]
        d.victim = .init(race: "Black", gender: "female", comments: "shaken")
        d.attachments = ["att-1"]
        return d
    }
}

/// The problems of a draft, in order; empty when it is valid.
func problems(_ d: ReportDraft, now: Date = Fixtures.now, timeZone: TimeZone = Fixtures.utc) -> [FieldProblem] {
    do {
        _ = try d.validated(now: now, timeZone: timeZone)
        return []
    } catch {
        return error.problems
    }
}

/// Shorthand for an expected problem.
func P(_ field: String, _ code: FieldProblem.Code, _ reason: String) -> FieldProblem {
    FieldProblem(field: field, code: code, reason: reason)
}

/// Shorthand for the "required" problem.
func required(_ field: String) -> FieldProblem {
    P(field, .required, "is required")
}

/// JSON text of an encodable value.
func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Top-level keys of an encodable value's JSON object.
func jsonKeys(_ value: some Encodable) throws -> Set<String> {
    let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]
    return Set(object?.keys.map { $0 } ?? [])
}

/// A small deterministic random generator (SplitMix64), so that a property test's failure names a
/// reproducible case.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
