import DomainKernel

/// A COVID self-report, field for field the COVID Lens self-report form and its `report` table.
///
/// Form fields: university affiliation, contact phone number, residence hall (or, here, a
/// location), the last day on campus. From the data dictionary: `age`, `situationDesc` (kept as
/// `notes`) and the user's confirmed/unconfirmed choice (`diagnosis`). `testDate` is the day of
/// the positive diagnosis that the design counts cases by. `submitterID`, `timeStamp` and
/// `confirmerID` are record metadata kept by storage, not report content; `reportInfo` ("the
/// choice/type of report") is the report's kind.
public struct CovidReport: Codable, Hashable, Sendable {
    /// Student, faculty or staff.
    public var affiliation: Affiliation
    /// The reporter's age in years, when given.
    public var age: Int?
    /// Contact phone, so that a verifier can confirm the diagnosis with the reporter.
    public var phone: String
    /// The residence hall picked from the layer, or a location.
    public var place: ReportPlace
    /// Day of the positive test in the campus time zone.
    public var testDate: Day
    /// Last day on campus in the campus time zone.
    public var lastOnCampus: Day
    /// The reporter's own claim about the diagnosis, when given.
    public var diagnosis: Diagnosis?
    /// Free text for the verifier (COVID Lens `situationDesc`).
    public var notes: String?

    /// Creates a report from already validated values; clients go through `ReportDraft`.
    public init(affiliation: Affiliation, age: Int? = nil, phone: String, place: ReportPlace, testDate: Day,
                lastOnCampus: Day, diagnosis: Diagnosis? = nil, notes: String? = nil) {
        self.affiliation = affiliation
        self.age = age
        self.phone = phone
        self.place = place
        self.testDate = testDate
        self.lastOnCampus = lastOnCampus
        self.diagnosis = diagnosis
        self.notes = notes
    }

    /// Every field name this report encodes, for checking the visibility table against.
    public static let fieldNames: [String] = CodingKeys.allCases.map(\.stringValue)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case affiliation, age, phone, place, testDate, lastOnCampus, diagnosis, notes
    }
}
