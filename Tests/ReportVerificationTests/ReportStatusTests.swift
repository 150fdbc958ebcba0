import DomainKernel
import ReportVerification
import Testing

@Suite("report status transitions")
struct ReportStatusTests {
    @Test("every allowed transition leads where DESIGN says", arguments: [
        (ReportStatus.pending, ReportTransition.verify, ReportStatus.verified),
        (.pending, .reject, .rejected),
        (.pending, .withdraw, .withdrawn),
        (.verified, .revoke, .revoked),
        (.rejected, .reopen, .pending),
    ])
    func allowed(from: ReportStatus, transition: ReportTransition, to: ReportStatus) throws {
        #expect(try from.applying(transition, reason: "checked with the testing site") == to)
    }

    @Test("every other pair is refused with the current status")
    func refused() {
        for status in ReportStatus.allCases {
            for t in ReportTransition.allCases where t.source != status {
                #expect(throws: TransitionError.notAllowed(t, from: status)) { try status.applying(t, reason: "r") }
            }
        }
    }

    @Test("reject, revoke and reopen need a reason; blanks are not one")
    func reasons() {
        #expect(throws: TransitionError.reasonRequired(.reject)) { try ReportStatus.pending.applying(.reject, reason: nil) }
        #expect(throws: TransitionError.reasonRequired(.revoke)) { try ReportStatus.verified.applying(.revoke, reason: "  \n") }
        #expect(throws: TransitionError.reasonRequired(.reopen)) { try ReportStatus.rejected.applying(.reopen, reason: "") }
        #expect((try? ReportStatus.pending.applying(.verify, reason: nil)) == .verified)
    }

    @Test("terminal statuses allow nothing")
    func terminal() {
        #expect(ReportStatus.withdrawn.allowedTransitions.isEmpty)
        #expect(ReportStatus.revoked.allowedTransitions.isEmpty)
        #expect(ReportStatus.pending.allowedTransitions == [.verify, .reject, .withdraw])
    }
}
