import Foundation
import Testing
import ReportVerification

@Suite("revision history")
struct RevisionHistoryTests {
    let t0 = Fixtures.now

    /// A history of "v1" … "v\(count)", one revision a minute.
    func history(_ count: Int, keeping limit: Int = ReportLimits.revisionsKept) -> RevisionHistory<String> {
        var h = RevisionHistory("v1", at: t0, by: "reporter", keeping: limit)
        for i in stride(from: 2, through: count, by: 1) { h.append("v\(i)", at: t0.addingTimeInterval(Double(i) * 60), by: "verifier") }
        return h
    }

    @Test("the submitted value is revision 1; the default keeps 5")
    func start() {
        let h = RevisionHistory("v1", at: t0, by: "reporter")
        #expect(h.limit == 5 && ReportLimits.revisionsKept == 5)
        #expect(h.revisions == [Revision(number: 1, value: "v1", recordedAt: t0, author: "reporter")])
        #expect(h.current.value == "v1" && h.keptNumbers == 1...1)
    }

    @Test("edits append numbered revisions and keep all while within the limit")
    func keep() {
        let h = history(5)
        #expect(h.revisions.map(\.number) == [1, 2, 3, 4, 5])
        #expect(h.revisions.map(\.value) == ["v1", "v2", "v3", "v4", "v5"])
        #expect(h.current.author == "verifier" && h.current.recordedAt == t0.addingTimeInterval(300))
    }

    @Test("beyond the limit the oldest are pruned; numbers are never reused")
    func prune() {
        let h = history(7)
        #expect(h.revisions.map(\.number) == [3, 4, 5, 6, 7])
        #expect(h.revisions.map(\.value) == ["v3", "v4", "v5", "v6", "v7"])
        #expect(h.revision(2) == nil && h.revision(3)?.value == "v3" && h.revision(7)?.value == "v7" && h.revision(8) == nil)
    }

    @Test("any kept revision can be restored, as a new revision that names its source")
    func restore() throws {
        var h = history(7)
        let restored = try h.restore(3, at: t0.addingTimeInterval(3600), by: "admin")
        #expect(restored == Revision(number: 8, value: "v3", recordedAt: t0.addingTimeInterval(3600), author: "admin", restoredFrom: 3))
        #expect(h.current == restored)
        // The restore pruned the oldest, which was the restored revision itself; its copy remains.
        #expect(h.revisions.map(\.number) == [4, 5, 6, 7, 8] && h.revisions.map(\.value) == ["v4", "v5", "v6", "v7", "v3"])
        // A restore can itself be undone by restoring the revision before it.
        try h.restore(7, at: t0.addingTimeInterval(7200), by: "admin")
        #expect(h.current.value == "v7" && h.current.number == 9 && h.current.restoredFrom == 7)
        // Restoring the current revision records it again.
        try h.restore(9, at: t0, by: "admin")
        #expect(h.current.value == "v7" && h.current.number == 10)
    }

    @Test("pruned and unknown revisions cannot be restored, and the history is unchanged")
    func restoreRefused() {
        var h = history(7)
        let before = h
        #expect(throws: RevisionError.pruned(2)) { try h.restore(2, at: t0, by: "admin") }
        #expect(throws: RevisionError.pruned(1)) { try h.restore(1, at: t0, by: "admin") }
        #expect(throws: RevisionError.unknown(8)) { try h.restore(8, at: t0, by: "admin") }
        #expect(throws: RevisionError.unknown(0)) { try h.restore(0, at: t0, by: "admin") }
        #expect(h == before)
    }

    @Test("lowering the limit prunes at once; the current revision is always kept")
    func lowerLimit() {
        var h = history(5)
        h.prune(keepingLast: 2)
        #expect(h.limit == 2 && h.revisions.map(\.number) == [4, 5])
        h.append("v6", at: t0, by: "verifier")
        #expect(h.revisions.map(\.number) == [5, 6])
        h.prune(keepingLast: 0)
        #expect(h.limit == 1 && h.revisions.map(\.value) == ["v6"])
        #expect(RevisionHistory("x", at: t0, by: "r", keeping: -3).limit == 1)
    }

    @Test("a history survives a JSON round trip; one that breaks the invariants does not decode")
    func coding() throws {
        var h = history(7)
        try h.restore(4, at: t0, by: "admin")
        let decoder = JSONDecoder()
        #expect(try decoder.decode(RevisionHistory<String>.self, from: JSONEncoder().encode(h)) == h)

        func entry(_ n: Int, restoredFrom: Int? = nil) -> String {
            #"{"number":\#(n),"value":"v","recordedAt":0,"author":"a"\#(restoredFrom.map { ",\"restoredFrom\":\($0)" } ?? "")}"#
        }
        let corrupt = [
            #"{"limit":5,"revisions":[]}"#,
            #"{"limit":0,"revisions":[\#(entry(1))]}"#,
            #"{"limit":1,"revisions":[\#(entry(1)),\#(entry(2))]}"#,
            #"{"limit":5,"revisions":[\#(entry(1)),\#(entry(3))]}"#,
            #"{"limit":5,"revisions":[\#(entry(0))]}"#,
            #"{"limit":5,"revisions":[\#(entry(1)),\#(entry(2, restoredFrom: 2))]}"#,
        ]
        for text in corrupt {
            #expect(throws: DecodingError.self, "\(text)") { try decoder.decode(RevisionHistory<String>.self, from: Data(text.utf8)) }
        }
        #expect(try decoder.decode(RevisionHistory<String>.self, from: Data(#"{"limit":5,"revisions":[\#(entry(3)),\#(entry(4, restoredFrom: 1))]}"#.utf8)).current.number == 4)
    }
}
