import DomainKernel

/// A police-misconduct report, field for field the TripleR report form: when and where, the
/// officer (name, badge number, description), the incident, witnesses, the victim, and video or
/// photo attachments.
public struct MisconductReport: Codable, Hashable, Sendable {
    /// When the encounter happened, written at the campus zone's offset, so that its civil day is
    /// the incident's day where it happened.
    public var occurredAt: Instant
    /// Where it happened.
    public var place: ReportPlace
    /// The officer's name, if the reporter knows it. Not public: see `ReportKind.fieldVisibility`.
    public var officerName: String?
    /// The officer's badge number, if seen. Not public, like the name.
    public var badgeNumber: String?
    /// What the officer looked like; public once the report is verified.
    public var officerDescription: String
    /// What happened; public once the report is verified.
    public var incidentDescription: String
    /// Witnesses, in the order given.
    public var witnesses: [Witness]
    /// The victim's details, when given.
    public var victim: Victim?
    /// Uploaded videos and photos, by id.
    public var attachments: [AttachmentID]
    /// Anonymous by default: the reporter's account is then not linked to the report at all.
    public var anonymous: Bool

    /// Creates a report from already validated values; clients go through `ReportDraft`.
    public init(occurredAt: Instant, place: ReportPlace, officerName: String? = nil, badgeNumber: String? = nil,
                officerDescription: String, incidentDescription: String, witnesses: [Witness] = [],
                victim: Victim? = nil, attachments: [AttachmentID] = [], anonymous: Bool = true) {
        self.occurredAt = occurredAt
        self.place = place
        self.officerName = officerName
        self.badgeNumber = badgeNumber
        self.officerDescription = officerDescription
        self.incidentDescription = incidentDescription
        self.witnesses = witnesses
        self.victim = victim
        self.attachments = attachments
        self.anonymous = anonymous
    }

    /// The incident's day where it happened: `occurredAt` is written at the campus zone's offset.
    public var occurredOn: Day { occurredAt.day }

    /// Every field name this report encodes, for checking the visibility table against.
    public static let fieldNames: [String] = CodingKeys.allCases.map(\.stringValue)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case occurredAt, place, officerName, badgeNumber, officerDescription, incidentDescription
        case witnesses, victim, attachments, anonymous
    }

    /// Decodes a stored report. `witnesses` and `attachments` default to empty and `anonymous` to
    /// true, because payloads stored before attachments existed lack them and must still read.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        occurredAt = try c.decode(Instant.self, forKey: .occurredAt)
        place = try c.decode(ReportPlace.self, forKey: .place)
        officerName = try c.decodeIfPresent(String.self, forKey: .officerName)
        badgeNumber = try c.decodeIfPresent(String.self, forKey: .badgeNumber)
        officerDescription = try c.decode(String.self, forKey: .officerDescription)
        incidentDescription = try c.decode(String.self, forKey: .incidentDescription)
        witnesses = try c.decodeIfPresent([Witness].self, forKey: .witnesses) ?? []
        victim = try c.decodeIfPresent(Victim.self, forKey: .victim)
        attachments = try c.decodeIfPresent([AttachmentID].self, forKey: .attachments) ?? []
        anonymous = try c.decodeIfPresent(Bool.self, forKey: .anonymous) ?? true
    }
}
