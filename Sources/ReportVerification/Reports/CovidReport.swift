/// A COVID self-report (the COVID Lens self-report form): affiliation, contact phone, where
/// (residence hall or location), the positive test's date and the last day on campus.
public struct CovidReport: Codable, Hashable, Sendable {
    public var affiliation: Affiliation
    public var age: Int?
    /// Contact phone, for the verifier who confirms the diagnosis.
    public var phone: String
    public var place: ReportPlace
    /// Day of the positive test, `YYYY-MM-DD`.
    public var testDate: String
    /// Last day on campus, `YYYY-MM-DD`.
    public var lastOnCampus: String
    /// Free text for the verifier.
    public var notes: String?
}
