import ArgumentParser
import Foundation
import GeoserveApp
import Storage

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check the audit trail.",
        subcommands: [AuditVerifyCommand.self, AuditHeadCommand.self]
    )
}

struct AuditVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Recompute the audit trail's hash chain; exit 1 at the first entry edited or deleted.",
        discussion: "With --head, also check that the trail still holds a head exported earlier by `geoserve audit head`: entries removed from its end, or rewritten before it, are found even by someone who could recompute the chain."
    )

    @Option(help: ArgumentHelp("A head written by `geoserve audit head`, kept away from the database.", valueName: "file"))
    var head: String?

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let opened = try await store.opened(reading: true), (db, keys) = (opened.store, opened.keys)
        if let head {
            let signed: AuditHead
            do { signed = try AuditHead(text: String(contentsOfFile: head, encoding: .utf8)) } catch {
                throw CommandFailure("cannot read the head \(head): \(error)")
            }
            guard signed.isSigned(by: keys) else {
                printError("the head in \(head) is not signed by this installation's audit key")
                throw ExitCode(1)
            }
            guard try await db.auditHash(sequence: signed.sequence) == signed.hash else {
                printError("audit trail broken: entry \(signed.sequence), exported as the head, is missing or changed")
                throw ExitCode(1)
            }
        }
        if let broken = try await db.verifyAuditChain() {
            printError("audit trail broken at entry \(broken): it, or the entry before it, was edited or deleted")
            throw ExitCode(1)
        }
        print("audit trail intact" + (head == nil ? "" : ", and it holds the exported head"))
    }
}

struct AuditHeadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "head",
        abstract: "Print the audit trail's newest entry, signed with the installation's audit key.",
        discussion: "Keep the output away from the database (another machine, a ticket, an e-mail to the auditor); `geoserve audit verify --head FILE` later proves the trail still holds it."
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let opened = try await store.opened(reading: true), (db, keys) = (opened.store, opened.keys)
        let tail = try await db.auditHead()
        print(AuditHead(sequence: tail.sequence, hash: tail.hash, keys: keys).text, terminator: "")
    }
}
