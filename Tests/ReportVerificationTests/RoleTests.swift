import ReportVerification
import Testing

@Suite("roles")
struct RoleTests {
    @Test("a viewer only reads granted reports; a researcher only exports")
    func narrowRoles() {
        #expect(Role.viewer.permissions == [.readGrantedReports])
        #expect(Role.researcher.permissions == [.exportStatistics])
    }

    @Test("reporters cannot verify or read others' reports")
    func reporter() {
        #expect(!Role.reporter.allows(.transitionReports))
        #expect(!Role.reporter.allows(.workQueue))
        #expect(!Role.reporter.allows(.readAttachments))
        #expect(Role.reporter.allows(.submitReport))
    }

    @Test("admins can do everything verifiers can, plus accounts, layers and grants")
    func admin() {
        #expect(Role.verifier.permissions.isSubset(of: Role.admin.permissions))
        #expect(Role.admin.allows(.manageAccounts) && Role.admin.allows(.manageGrants) && Role.admin.allows(.manageLayers))
        #expect(!Role.verifier.allows(.manageAccounts))
    }
}
