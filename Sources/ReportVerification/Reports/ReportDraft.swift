import Foundation
import GeoCore

/// A report as a client submits it: every field optional, so that validation can name each
/// missing or wrong one instead of failing on the first.
public struct ReportDraft: Codable, Sendable {
    public struct Location: Codable, Sendable {
        public var lon: Double?
        public var lat: Double?
        public var accuracyM: Double?
        public init(lon: Double?, lat: Double?, accuracyM: Double?) { self.lon = lon; self.lat = lat; self.accuracyM = accuracyM }
    }

    public struct AreaRef: Codable, Sendable {
        public var layer: String?
        public var id: String?
        public init(layer: String?, id: String?) { self.layer = layer; self.id = id }
    }

    public struct WitnessDraft: Codable, Sendable {
        public var contact: String?
        public var statement: String?
        public init(contact: String?, statement: String?) { self.contact = contact; self.statement = statement }
    }

    public struct VictimDraft: Codable, Sendable {
        public var race: String?
        public var gender: String?
        public var comments: String?
        public init(race: String?, gender: String?, comments: String?) { self.race = race; self.gender = gender; self.comments = comments }
    }

    public var kind: String?
    public var location: Location?
    public var area: AreaRef?
    // covid
    public var affiliation: String?
    public var age: Int?
    public var phone: String?
    public var testDate: String?
    public var lastOnCampus: String?
    public var notes: String?
    // misconduct
    public var occurredAt: String?
    public var officerName: String?
    public var badgeNumber: String?
    public var officerDescription: String?
    public var incidentDescription: String?
    public var witnesses: [WitnessDraft]?
    public var victim: VictimDraft?
    public var anonymous: Bool?

    public init() {}
}

/// One thing wrong with a draft: the field's path (`witnesses[1].statement`) and why.
public struct FieldProblem: Hashable, Sendable, Codable, CustomStringConvertible {
    public let field: String
    public let reason: String
    public var description: String { "\(field): \(reason)" }
}

/// Every problem of a draft at once.
public struct ReportValidationError: Error, Hashable, Sendable {
    public let problems: [FieldProblem]
}

extension ReportDraft {
    /// Validates into a typed report.
    /// - Parameters:
    ///   - now: the present, so that "not in the future" is testable.
    ///   - timeZone: the campus's zone: days are its days.
    /// - Throws: `ReportValidationError` listing every problem.
    public func validated(now: Date, timeZone: TimeZone) throws(ReportValidationError) -> Report {
        var v = DraftValidator(now: now, timeZone: timeZone)
        let place = v.place(location, area)
        let report: Report?
        switch kind {
        case "covid":
            let affiliation = v.required("affiliation", self.affiliation).flatMap { raw -> Affiliation? in
                guard let a = Affiliation(rawValue: raw) else { v.fail("affiliation", "must be student, faculty or staff"); return nil }
                return a
            }
            if let age, !ReportLimits.age.contains(age) { v.fail("age", "must be between 0 and 130") }
            let phone = v.phone("phone", self.phone)
            let test = v.day("testDate", testDate, required: true)
            let last = v.day("lastOnCampus", lastOnCampus, required: true)
            let notes = v.text("notes", self.notes, max: ReportLimits.longText)
            if let affiliation, let phone, let test, let last, let place {
                report = .covid(CovidReport(affiliation: affiliation, age: age, phone: phone, place: place, testDate: test, lastOnCampus: last, notes: notes))
            } else { report = nil }
        case "misconduct":
            let at = v.instant("occurredAt", occurredAt)
            let officerName = v.text("officerName", self.officerName, max: ReportLimits.shortText)
            let badge = v.text("badgeNumber", badgeNumber, max: ReportLimits.shortText)
            let officer = v.required("officerDescription", v.text("officerDescription", officerDescription, max: ReportLimits.longText))
            let incident = v.required("incidentDescription", v.text("incidentDescription", incidentDescription, max: ReportLimits.longText))
            let ws = witnesses ?? []
            if ws.count > ReportLimits.witnesses { v.fail("witnesses", "at most \(ReportLimits.witnesses) witnesses") }
            let witnessList = ws.prefix(ReportLimits.witnesses).enumerated().map { i, w in
                Witness(contact: v.text("witnesses[\(i)].contact", w.contact, max: ReportLimits.shortText),
                        statement: v.text("witnesses[\(i)].statement", w.statement, max: ReportLimits.longText))
            }
            for (i, w) in witnessList.enumerated() where w.contact == nil && w.statement == nil {
                v.fail("witnesses[\(i)]", "a witness needs a contact or a statement")
            }
            let victim = self.victim.map {
                Victim(race: v.text("victim.race", $0.race, max: ReportLimits.shortText),
                       gender: v.text("victim.gender", $0.gender, max: ReportLimits.shortText),
                       comments: v.text("victim.comments", $0.comments, max: ReportLimits.longText))
            }
            if let at, let officer, let incident, let place {
                report = .misconduct(MisconductReport(occurredAt: at, place: place, officerName: officerName, badgeNumber: badge,
                                                      officerDescription: officer, incidentDescription: incident, witnesses: witnessList,
                                                      victim: victim, anonymous: anonymous ?? true))
            } else { report = nil }
        case nil:
            v.fail("kind", "is required (covid or misconduct)")
            report = nil
        default:
            v.fail("kind", "must be covid or misconduct")
            report = nil
        }
        guard v.problems.isEmpty, let report else { throw ReportValidationError(problems: v.problems) }
        return report
    }
}

/// Collects problems while checking fields one by one.
struct DraftValidator {
    let now: Date
    let timeZone: TimeZone
    var problems: [FieldProblem] = []

    mutating func fail(_ field: String, _ reason: String) {
        problems.append(FieldProblem(field: field, reason: reason))
    }

    mutating func required<T>(_ field: String, _ value: T?) -> T? {
        if value == nil, !problems.contains(where: { $0.field == field }) { fail(field, "is required") }
        return value
    }

    /// Trimmed text within a length; blank counts as absent.
    mutating func text(_ field: String, _ value: String?, max: Int) -> String? {
        guard let t = value?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
        guard t.count <= max else { fail(field, "at most \(max) characters"); return nil }
        return t
    }

    mutating func phone(_ field: String, _ value: String?) -> String? {
        guard let p = required(field, text(field, value, max: 40)) else { return nil }
        let digits = p.filter(\.isNumber).count
        let allowed = p.allSatisfy { $0.isNumber || " +-().".contains($0) }
        guard allowed, ReportLimits.phoneDigits.contains(digits) else {
            fail(field, "a phone number has 7 to 20 digits and only + - ( ) . or spaces besides them")
            return nil
        }
        return p
    }

    private var calendar: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        return c
    }

    /// A `YYYY-MM-DD` day that exists and is not after today in the campus zone.
    mutating func day(_ field: String, _ value: String?, required isRequired: Bool) -> String? {
        guard let raw = value else {
            if isRequired { fail(field, "is required") }
            return nil
        }
        let parts = raw.split(separator: "-")
        guard raw.count == 10, parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              DateComponents(year: y, month: m, day: d).isValidDate(in: calendar) else {
            fail(field, "must be a date YYYY-MM-DD")
            return nil
        }
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        if (y, m, d) > (today.year!, today.month!, today.day!) { fail(field, "is in the future"); return nil }
        return raw
    }

    /// An ISO 8601 date-time not in the future.
    mutating func instant(_ field: String, _ value: String?) -> String? {
        guard let raw = required(field, value) else { return nil }
        let parsed = (try? Date(raw, strategy: .iso8601)) ?? (try? Date(raw, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        guard let date = parsed else { fail(field, "must be an ISO 8601 date-time such as 2026-11-20T21:15:00Z"); return nil }
        guard date <= now.addingTimeInterval(300) else { fail(field, "is in the future"); return nil }
        // Keep the instant in UTC so that its day prefix is a well-defined day.
        return date.formatted(.iso8601)
    }

    mutating func place(_ location: ReportDraft.Location?, _ area: ReportDraft.AreaRef?) -> ReportPlace? {
        switch (location, area) {
        case (nil, nil):
            fail("location", "a report needs a location or an area")
            return nil
        case (.some, .some):
            fail("area", "give a location or an area, not both")
            return nil
        case (.some(let l), nil):
            guard let lon = l.lon, let lat = l.lat else { fail("location", "needs lon and lat"); return nil }
            do { _ = try Position(lon: lon, lat: lat) } catch { fail("location", error.description); return nil }
            if let a = l.accuracyM, !(0...ReportLimits.maxAccuracyMetres).contains(a) {
                fail("location.accuracyM", "must be between 0 and \(Int(ReportLimits.maxAccuracyMetres)) metres")
                return nil
            }
            return .location(lon: lon, lat: lat, accuracyMetres: l.accuracyM)
        case (nil, .some(let a)):
            guard let layer = text("area.layer", a.layer, max: ReportLimits.idText) else { fail("area.layer", "is required"); return nil }
            guard let id = text("area.id", a.id, max: ReportLimits.idText) else { fail("area.id", "is required"); return nil }
            return .area(layer: layer, areaID: id)
        }
    }
}
