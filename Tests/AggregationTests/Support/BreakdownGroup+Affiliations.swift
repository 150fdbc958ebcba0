import DomainKernel

/// The COVID form's affiliations as groups, for tables written by hand.
extension BreakdownGroup {
    static let student = BreakdownGroup("student")!
    static let faculty = BreakdownGroup("faculty")!
    static let staff = BreakdownGroup("staff")!
}
