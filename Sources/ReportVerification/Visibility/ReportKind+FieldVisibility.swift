import DomainKernel

extension ReportKind {
    /// The visibility of every field of the kind, keyed by the field's JSON name. This table is the
    /// one source of truth for what leaves the service to whom; a field missing from it is treated
    /// as invisible to everyone (fail closed), and a test checks that every encoded field is listed.
    ///
    /// COVID: nothing is public. Public COVID numbers are aggregates made by `Aggregation` under
    /// disclosure control; no single self-report field is safe to publish (hall plus dates can
    /// identify a student).
    ///
    /// Misconduct: only the officer description, the incident description, the incident's day and
    /// the area are public — what TripleR lists for area searches ("just officer description and
    /// description of incident") plus the day and area the search itself is about. The exact time
    /// and place stay internal: together with the day and area they could single out the victim.
    /// Officer name and badge number stay internal too: the document leaves them out of public
    /// search, and they are the reporter's unverified allegation against a named person —
    /// publishing them could harm an officer wrongly named, while a verifier or a granted viewer
    /// (e.g. a district attorney) can still act on them. Witnesses, victim details and attachments
    /// are never public, as TripleR requires.
    public var fieldVisibility: [String: FieldVisibility] {
        switch self {
        case .covid:
            return [
                "affiliation": .verifierOnly,
                "age": .verifierOnly,
                "phone": .reporterOnly,
                "place": .verifierOnly,
                "testDate": .verifierOnly,
                "lastOnCampus": .verifierOnly,
                "diagnosis": .verifierOnly,
                "notes": .verifierOnly,
            ]
        case .misconduct:
            return [
                "occurredAt": .verifierOnly,
                "place": .verifierOnly,
                "officerName": .verifierOnly,
                "badgeNumber": .verifierOnly,
                "officerDescription": .public,
                "incidentDescription": .public,
                "witnesses": .reporterOnly,
                "victim": .verifierOnly,
                "attachments": .reporterOnly,
                "anonymous": .verifierOnly,
                // Derived, not stored: the public projection's day and area.
                "occurredOn": .public,
                "area": .public,
            ]
        }
    }

    /// The fields of one visibility.
    public func fields(_ visibility: FieldVisibility) -> Set<String> {
        Set(fieldVisibility.filter { $0.value == visibility }.keys)
    }

    /// The fields an audience may see.
    public func fields(visibleTo audience: ReportAudience) -> Set<String> {
        Set(fieldVisibility.filter { $0.value.isVisible(to: audience) }.keys)
    }
}
