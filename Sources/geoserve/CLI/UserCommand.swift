import ArgumentParser
import Foundation
import GeoserveApp
import ReportVerification
import Storage

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage accounts from the command line (the first admin is created here).",
        subcommands: [UserCreateCommand.self, UserListCommand.self]
    )
}

struct UserCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an account.",
        discussion: """
        The password is read from standard input (first line) or, on a terminal, prompted for \
        without echo. It is never taken as a flag, so it stays out of shell history and process lists.
        """
    )

    @Option(help: "reporter, verifier, researcher, viewer or admin.")
    var role: String

    @Option(help: "The account's email address (its login name).")
    var email: String

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard Role(rawValue: role) != nil else { throw ValidationError("--role must be one of \(Role.allCases.map(\.rawValue).joined(separator: ", "))") }
        guard EmailAddress.isPlausible(email) else { throw ValidationError("--email is not an email address") }
    }

    func run() async throws {
        guard let password = PasswordInput.read(prompt: "Password for \(email): ") else {
            throw ValidationError("no password given on standard input")
        }
        if let problem = Credentials.checkPassword(password) { throw ValidationError(problem) }
        let db = try await store.open()
        let hash = await Credentials().hash(password: password)
        do {
            let account = try await db.createAccount(email: email, role: Role(rawValue: role)!, passwordHash: hash)
            print("created \(account.role.rawValue) \(account.email) (id \(account.id))")
        } catch StorageError.conflict {
            throw CommandFailure("an account with this email already exists")
        }
    }
}

struct UserListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List accounts.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let db = try await store.open()
        for a in try await db.accounts() {
            print("\(a.id)  \(a.role.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))  \(a.email)\(a.disabled ? "  (disabled)" : "")")
        }
    }
}

/// Reads a password: prompted without echo on a terminal, else the first line of standard input.
enum PasswordInput {
    static func read(prompt: String) -> String? {
        guard isatty(STDIN_FILENO) != 0 else { return readLine(strippingNewline: true) }
        printError(prompt, terminator: "")
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            printError("")
        }
        return readLine(strippingNewline: true)
    }
}
