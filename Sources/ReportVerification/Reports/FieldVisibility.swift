/// Who may see a report field. Every serializer of reports asks this table; it is the one place
/// where the public/internal split is declared.
public enum FieldVisibility: String, Hashable, Sendable {
    /// May appear in public outputs (public misconduct search).
    case `public`
    /// Verifiers, viewers granted the report, and the reporter.
    case verifier
    /// Contact details: verifiers and the reporter only, never a viewer.
    case reporter
}

extension ReportKind {
    /// The visibility of every field of the kind.
    ///
    /// Misconduct: only the officer description, the incident description, the day and the area
    /// are public — exactly what the TripleR document lists for area searches. Officer name and
    /// badge number stay internal: they are the reporter's unverified allegation against a named
    /// person, and publishing them before verification could harm an officer wrongly named; a
    /// verifier or a granted viewer (e.g. a district attorney) sees them. The exact location,
    /// witnesses, victim details and attachments are never public.
    public var fieldVisibility: [String: FieldVisibility] {
        switch self {
        case .covid:
            return ["affiliation": .verifier, "age": .verifier, "phone": .reporter, "place": .verifier,
                    "testDate": .verifier, "lastOnCampus": .verifier, "notes": .verifier]
        case .misconduct:
            return ["occurredAt": .verifier, "occurredOn": .public, "area": .public, "place": .verifier,
                    "officerName": .verifier, "badgeNumber": .verifier, "officerDescription": .public,
                    "incidentDescription": .public, "witnesses": .reporter, "victim": .verifier, "anonymous": .verifier]
        }
    }

    /// The fields of a visibility.
    public func fields(_ visibility: FieldVisibility) -> Set<String> {
        Set(fieldVisibility.filter { $0.value == visibility }.keys)
    }
}

/// What public misconduct search returns for a verified report, built from the `public` fields.
public struct PublicMisconductReport: Codable, Hashable, Sendable {
    public let officerDescription: String
    public let incidentDescription: String
    /// The incident's day, `YYYY-MM-DD`.
    public let occurredOn: String
    /// The area (layer and id) the report was placed in, if any.
    public let area: String?
    public let layer: String?

    /// Projects a report onto its public fields.
    public init(_ r: MisconductReport, layer: String?, areaID: String?) {
        officerDescription = r.officerDescription
        incidentDescription = r.incidentDescription
        occurredOn = String(r.occurredAt.prefix(10))
        self.layer = layer
        area = areaID
    }
}
