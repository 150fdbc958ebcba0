import Foundation
import Testing
import Aggregation
import DomainKernel

/// Data sets built to be attacked; every release to the public must survive both attackers.
@Suite("disclosure control under attack")
struct AttackerTests {
    /// Runs both attackers and the visible checks on a table's public release.
    private func expectSafe(_ table: AttackTable, k: Int = 11, sourceLocation: SourceLocation = #_sourceLocation) -> ReleasedLayerStatistics {
        let policy = DisclosurePolicy(thresholds: [.public: k, .researcher: k, .verifier: 1])
        let release = table.release(.public, policy: policy)
        #expect(release.threshold == k, sourceLocation: sourceLocation)
        #expect(Attacker.linearLeaks(table, release, k: k) == [], sourceLocation: sourceLocation)
        #expect(Attacker.pinnedSuppressed(table, release) == [], sourceLocation: sourceLocation)
        #expect(Attacker.visibleProblems(table, release) == [], sourceLocation: sourceLocation)
        return release
    }

    @Test("one report last week and twelve the week before: neither week can be recovered from 14d − 7d")
    func lastWeekSmall() {
        var table = AttackTable(areas: 3, groups: [])
        table.counts[0][0][0] = 1
        table.counts[0][1][0] = 12
        table.counts[1][0][0] = 30
        table.counts[2][0][0] = 25
        let release = expectSafe(table)
        let a = release.areas["A00"]!
        #expect(a.counts[.d7] == .suppressed)
        #expect(a.previous[.d7] == .suppressed)
        #expect(a.change[.d7] == .suppressed)
        #expect(a.counts[.d14] == .value(13))
        #expect(release.areas["A01"]!.counts[.d7] == .value(30))
    }

    @Test("one area alone is small: the total minus the other areas does not reveal it")
    func smallAreaAgainstTotal() {
        var table = AttackTable(areas: 3, groups: [])
        table.counts[0][0][0] = 20
        table.counts[1][0][0] = 15
        table.counts[2][0][0] = 3
        let release = expectSafe(table)
        #expect(release.areas["A02"]!.counts[.d7] == .suppressed)
        #expect(release.areas["A01"]!.counts[.d7] == .suppressed, "complementary")
        #expect(release.areas["A00"]!.counts[.d7] == .value(20))
        #expect(release.total.counts[.d7] == .value(38))
    }

    @Test("one faculty member: the group breakdown does not reveal them, the area count stays")
    func oneFacultyMember() {
        var table = AttackTable(areas: 2, groups: [.student, .faculty, .staff])
        table.counts[0][0][0] = 15
        table.counts[0][0][1] = 1
        table.counts[1][0][0] = 22
        table.counts[1][2][2] = 14
        let release = expectSafe(table)
        let a = release.areas["A00"]!
        #expect(a.groups["faculty"]![.d7] == .suppressed)
        #expect(a.groups["student"]![.d7] == .suppressed)
        #expect(a.groups["staff"]![.d7] == .value(0))
        #expect(a.counts[.d7] == .value(16))
        #expect(release.total.groups["faculty"]![.d7] == .suppressed)
    }

    @Test("eleven areas with one report each: the total of 11 would pin every one of them")
    func elevenOnes() {
        var table = AttackTable(areas: 11, groups: [])
        for a in 0..<11 { table.counts[a][0][0] = 1 }
        let release = expectSafe(table)
        #expect(release.total.counts[.d7] == .suppressed)
    }

    /// Primary suppression alone: every count in 1..<k withheld, changes withheld, nothing else.
    private func primaryOnly(_ table: AttackTable, k: Int) -> [AttackTable.Statement] {
        table.statements(of: table.release(.verifier)).map { s in
            let truth = table.value(of: s.coefficients)
            let hidden = s.coefficients.allSatisfy { $0 >= 0 } ? (1..<k).contains(truth) : true
            return AttackTable.Statement(name: s.name, coefficients: s.coefficients, released: hidden ? nil : s.released)
        }
    }

    @Test("the attackers have teeth: primary suppression alone is broken by both")
    func primaryOnlyIsBroken() {
        var week = AttackTable(areas: 2, groups: [])
        week.counts[0][0][0] = 1
        week.counts[0][1][0] = 12
        week.counts[1][0][0] = 30
        #expect(Attacker.linearLeaks(week, primaryOnly(week, k: 11), k: 11).contains("cell 0/0/0 = 1"))

        var ones = AttackTable(areas: 11, groups: [])
        for a in 0..<11 { ones.counts[a][0][0] = 1 }
        var naive = primaryOnly(ones, k: 11)
        #expect(Attacker.linearLeaks(ones, naive, k: 11).isEmpty, "the total alone is not a linear leak…")
        #expect(Attacker.pinnedSuppressed(ones, naive).contains("A00.counts.7d"), "…but with every area ≥ 1 it pins each")
        naive = naive.map { $0.name.hasPrefix("total.counts") ? AttackTable.Statement(name: $0.name, coefficients: $0.coefficients, released: nil) : $0 }
        #expect(Attacker.pinnedSuppressed(ones, naive).isEmpty)
    }

    @Test("random small tables survive both attackers", arguments: [1, 2, 3, 4] as [UInt64])
    func randomTables(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let groupChoices: [[BreakdownGroup]] = [[], [.student, .faculty], [.student, .faculty, .staff]]
        for _ in 0..<100 {
            var table = AttackTable(areas: Int.random(in: 1...7, using: &random), groups: groupChoices.randomElement(using: &random)!)
            for a in table.areaIDs.indices { for s in 0..<5 { for g in 0..<table.groupSlots {
                let roll = Int.random(in: 0..<100, using: &random)
                table.counts[a][s][g] = roll < 45 ? 0 : roll < 80 ? Int.random(in: 1...4, using: &random)
                    : roll < 95 ? Int.random(in: 5...12, using: &random) : Int.random(in: 13...40, using: &random)
            } } }
            _ = expectSafe(table, k: [3, 5, 11].randomElement(using: &random)!)
            let verifier = table.release(.verifier)
            #expect((Array(verifier.areas.values) + [verifier.total]).allSatisfy { $0.suppressedFields.isEmpty && $0.pending != nil })
        }
    }

    @Test("a larger layer with Zipf-like areas survives both attackers", arguments: [(40, [] as [BreakdownGroup]), (16, [BreakdownGroup.student, .faculty, .staff])])
    func largerLayer(areas: Int, groups: [BreakdownGroup]) {
        var random = SplitMix64(seed: UInt64(areas))
        var table = AttackTable(areas: areas, groups: groups)
        for a in 0..<areas {
            let reports = Int.random(in: 0...(120 / (a + 1)), using: &random)
            for _ in 0..<reports {
                table.counts[a][Int.random(in: 0..<5, using: &random)][Int.random(in: 0..<table.groupSlots, using: &random)] += 1
            }
        }
        _ = expectSafe(table)
    }

    @Test("nothing to hide: every cell 0 or at least k publishes everything")
    func nothingToHide() {
        var table = AttackTable(areas: 4, groups: [.student, .faculty])
        for a in 0..<4 { for s in 0..<5 { for g in 0..<3 where (a + s + g) % 3 != 0 { table.counts[a][s][g] = 11 + a + s + g } } }
        let release = expectSafe(table)
        let everything = Array(release.areas.values) + [release.total]
        #expect(everything.allSatisfy { $0.suppressedFields.isEmpty })
    }

    @Test("suppressed numbers appear as null with a marker, never as a number, rates included")
    func suppressedInJSON() throws {
        var table = AttackTable(areaIDs: ["H1", "H2"], groups: [], counts: [], denominators: ["H1": 400, "H2": 300])
        table.counts = [[[3], [0], [0], [0], [0]], [[40], [0], [0], [0], [0]]]
        let release = table.release()
        let h1 = release.areas["H1"]!
        #expect(h1.counts[.d7] == .suppressed)
        #expect(h1.ratePer1000?[.d7] == .suppressed)
        #expect(h1.change[.d7] == .suppressed)
        #expect(h1.suppressedFields.contains("ratePer1000.7d"))
        #expect(h1.suppressedFields.contains("counts.7d"))
        #expect(release.total.counts[.d7] == .value(43))
        #expect(release.areas["H2"]!.counts[.d7] == .suppressed)
        #expect(release.areas["H2"]!.previous[.d7] == .value(0))

        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(h1), as: UTF8.self)
        #expect(json.contains(#""counts":{"14d":null,"28d":null,"7d":null,"all":null}"#))
        #expect(json.contains(#""ratePer1000":{"14d":null,"28d":null,"7d":null,"all":null}"#))
        #expect(json.contains(#""change":{"14d":null,"28d":null,"7d":null}"#))
        #expect(json.contains(#""suppressed":["change.14d","change.28d","change.7d","counts.14d""#))
        #expect(!json.contains("3"), "the suppressed count appears nowhere")
    }

    @Test("verifiers see everything, pending included; the public sees no pending counts")
    func verifierAudience() {
        var table = AttackTable(areas: 2, groups: [])
        table.counts[0][0][0] = 2
        table.counts[1][0][0] = 1
        let verifier = table.release(.verifier)
        #expect(verifier.threshold == 1)
        #expect(verifier.areas["A00"]!.counts[.d7] == .value(2))
        #expect(verifier.areas["A00"]!.pending?[.d7] == 0)
        #expect(table.release(.public).areas["A00"]!.pending == nil)
    }
}
