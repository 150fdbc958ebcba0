/// Who a COVID self-reporter is on campus: the COVID Lens form's "University Affiliation" menu.
public enum Affiliation: String, Codable, CaseIterable, Hashable, Sendable {
    /// Enrolled at the university.
    case student
    /// Teaching or research staff.
    case faculty
    /// Every other employee.
    case staff
}
