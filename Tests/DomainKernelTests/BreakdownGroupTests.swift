import DomainKernel
import Testing

@Suite("breakdown group")
struct BreakdownGroupTests {
    @Test("no group is nil, never an empty name; a column's text reads back to the same group")
    func columnRoundTrip() throws {
        #expect(BreakdownGroup("") == nil)
        #expect(BreakdownGroup.column(nil) == "")
        let student = try #require(BreakdownGroup("student"))
        #expect(student.name == "student")
        #expect(BreakdownGroup.column(student) == "student")
        for group in [nil, student, BreakdownGroup("faculty")] {
            #expect(BreakdownGroup(BreakdownGroup.column(group)) == group)
        }
        // Published names are the plain names, as counters store them.
        #expect("groups.\(student)" == "groups.student")
        #expect(["staff", "faculty", "student"].compactMap(BreakdownGroup.init).sorted().map(\.name) == ["faculty", "staff", "student"])
    }
}
