import ArgumentParser
import Storage

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check the audit trail.",
        subcommands: [AuditVerifyCommand.self]
    )
}

struct AuditVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Recompute the audit trail's hash chain; exit 1 at the first entry edited or deleted."
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let db = try await store.open()
        if let broken = try await db.verifyAuditChain() {
            printError("audit trail broken at entry \(broken): it, or the entry before it, was edited or deleted")
            throw ExitCode(1)
        }
        print("audit trail intact")
    }
}
