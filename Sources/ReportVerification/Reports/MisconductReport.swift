/// A witness of a police encounter: contact and statement only (the TripleR form asks nothing else).
public struct Witness: Codable, Hashable, Sendable {
    public var contact: String?
    public var statement: String?
}

/// The person the encounter happened to: race, gender and comments only.
public struct Victim: Codable, Hashable, Sendable {
    public var race: String?
    public var gender: String?
    public var comments: String?
}

/// A police-misconduct report (the TripleR report form).
public struct MisconductReport: Codable, Hashable, Sendable {
    /// When the encounter happened (ISO 8601 date-time as sent).
    public var occurredAt: String
    public var place: ReportPlace
    public var officerName: String?
    public var badgeNumber: String?
    public var officerDescription: String
    public var incidentDescription: String
    public var witnesses: [Witness]
    public var victim: Victim?
    /// Anonymous by default: the reporter's account is then not linked to the report.
    public var anonymous: Bool
}

/// A report of either kind.
public enum Report: Hashable, Sendable {
    case covid(CovidReport)
    case misconduct(MisconductReport)

    public var kind: ReportKind {
        switch self {
        case .covid: return .covid
        case .misconduct: return .misconduct
        }
    }

    public var place: ReportPlace {
        switch self {
        case .covid(let r): return r.place
        case .misconduct(let r): return r.place
        }
    }

    /// The day counts are kept by: the test date, or the incident's day.
    public var occurredOn: String {
        switch self {
        case .covid(let r): return r.testDate
        case .misconduct(let r): return String(r.occurredAt.prefix(10))
        }
    }
}

extension Report: Codable {
    private enum Key: String, CodingKey { case kind, covid, misconduct }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        switch try c.decode(ReportKind.self, forKey: .kind) {
        case .covid: self = .covid(try c.decode(CovidReport.self, forKey: .covid))
        case .misconduct: self = .misconduct(try c.decode(MisconductReport.self, forKey: .misconduct))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .covid(let r): try c.encode(r, forKey: .covid)
        case .misconduct(let r): try c.encode(r, forKey: .misconduct)
        }
    }
}
