import Aggregation
import DomainKernel
import Testing

@Suite("windows")
struct WindowTests {
    private func day(_ iso: String) -> Day { Day(iso: iso)! }

    @Test("windows and previous windows are the segments counted back from the end day")
    func windows() {
        let end = day("2024-03-01")
        func segment(_ iso: String) -> TimeSegment? { TimeSegment(daysBeforeEnd: end.days(since: day(iso))) }
        #expect(segment("2024-03-02") == nil)
        #expect(segment("2024-03-01") == .days0to6)
        #expect(segment("2024-02-24") == .days0to6)             // 6 days before, across the leap day
        #expect(segment("2024-02-23") == .days7to13)
        #expect(segment("2024-02-17") == .days7to13)
        #expect(segment("2024-02-16") == .days14to27)
        #expect(segment("2024-02-03") == .days14to27)
        #expect(segment("2024-02-02") == .days28to55)
        #expect(segment("2024-01-06") == .days28to55)
        #expect(segment("2024-01-05") == .older)
        #expect(Window.d28.segments == [.days0to6, .days7to13, .days14to27])
        #expect(Window.d14.previousSegment == .days14to27)
        #expect(Window.all.previousSegment == nil)
    }
}
