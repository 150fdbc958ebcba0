import DomainKernel
import Foundation
import ReportVerification
import Testing

@Suite("one covid self-report per 14 days")
struct ResubmissionRuleTests {
    let now = Fixtures.now
    let day = Fixtures.day

    func prior(_ daysAgo: Double, _ status: ReportStatus) -> PriorCovidSubmission {
        PriorCovidSubmission(submittedAt: now.addingTimeInterval(-daysAgo * day), status: status)
    }

    @Test("13 days after a report the next is refused with the instant it opens")
    func day13() {
        let previous = prior(13, .pending)
        #expect(ResubmissionRule.decide(previous: [previous], now: now) == .notBefore(previous.submittedAt.addingTimeInterval(14 * day)))
        #expect(ResubmissionRule.decide(previous: [previous], now: now).notBefore == now.addingTimeInterval(day))
    }

    @Test("one second before 14 days it is still refused; at 14 days and after it is allowed")
    func boundary() {
        #expect(ResubmissionRule.decide(previous: [prior(14 - 1.0 / 86_400, .verified)], now: now) == .notBefore(now.addingTimeInterval(1)))
        #expect(ResubmissionRule.decide(previous: [prior(14, .verified)], now: now) == .allowed)
        #expect(ResubmissionRule.decide(previous: [prior(15, .verified)], now: now) == .allowed)
    }

    @Test("pending and verified reports block; withdrawn, rejected and revoked ones do not")
    func statuses() {
        for status in ReportStatus.allCases {
            let decision = ResubmissionRule.decide(previous: [prior(1, status)], now: now)
            let blocks = status == .pending || status == .verified
            #expect((decision != .allowed) == blocks, "\(status)")
            #expect(ResubmissionRule.blocks(status) == blocks)
        }
    }

    @Test("the latest blocking report decides, whatever the order and whatever newer non-blocking ones exist")
    func latestBlocking() {
        let previous = [prior(2, .withdrawn), prior(20, .verified), prior(10, .verified), prior(1, .rejected)]
        #expect(ResubmissionRule.decide(previous: previous, now: now) == .notBefore(now.addingTimeInterval(4 * day)))
        #expect(ResubmissionRule.decide(previous: [], now: now) == .allowed)
    }

    @Test("the tuple form used by the API agrees")
    func tupleForm() {
        let at = now.addingTimeInterval(-13 * day)
        #expect(ResubmissionRule.nextAllowed(after: [(at, .pending)], now: now) == at.addingTimeInterval(14 * day))
        #expect(ResubmissionRule.nextAllowed(after: [(at, .withdrawn)], now: now) == nil)
        #expect(ResubmissionRule.nextAllowed(after: [(now.addingTimeInterval(-14 * day), .verified)], now: now) == nil)
    }
}
