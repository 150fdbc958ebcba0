import DomainKernel

/// A validated report of either kind.
public enum Report: Hashable, Sendable {
    /// A COVID self-report.
    case covid(CovidReport)
    /// A police-misconduct report.
    case misconduct(MisconductReport)

    /// The report's kind.
    public var kind: ReportKind {
        switch self {
        case .covid: return .covid
        case .misconduct: return .misconduct
        }
    }

    /// Where the report happened.
    public var place: ReportPlace {
        switch self {
        case .covid(let r): return r.place
        case .misconduct(let r): return r.place
        }
    }

    /// The day counts are kept by: the positive test's day, or the incident's day.
    public var occurredOn: Day {
        switch self {
        case .covid(let r): return r.testDate
        case .misconduct(let r): return r.occurredOn
        }
    }
}

extension Report: Codable {
    private enum Key: String, CodingKey { case kind, covid, misconduct }

    /// Decodes `{"kind": "covid", "covid": {…}}` (or the misconduct equivalent).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        switch try c.decode(ReportKind.self, forKey: .kind) {
        case .covid: self = .covid(try c.decode(CovidReport.self, forKey: .covid))
        case .misconduct: self = .misconduct(try c.decode(MisconductReport.self, forKey: .misconduct))
        }
    }

    /// Encodes the kind beside the report, so a reader knows which shape follows.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .covid(let r): try c.encode(r, forKey: .covid)
        case .misconduct(let r): try c.encode(r, forKey: .misconduct)
        }
    }
}

extension Report {
    /// The group statistics break this report down by: a COVID self-reporter's affiliation, none
    /// for misconduct reports, whose reporters are anonymous by default.
    public var breakdownGroup: BreakdownGroup? {
        switch self {
        case .covid(let r): return BreakdownGroup(r.affiliation.rawValue)
        case .misconduct: return nil
        }
    }

    /// The breakdown groups a kind declares, so that which groups a release lists never depends
    /// on the data.
    public static func breakdownGroups(of kind: ReportKind) -> [BreakdownGroup] {
        switch kind {
        case .covid: return Affiliation.allCases.compactMap { BreakdownGroup($0.rawValue) }
        case .misconduct: return []
        }
    }
}
