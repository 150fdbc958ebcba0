import Foundation

/// A PostgreSQL server of one test's own, for tests that stop and start it (the shared test
/// server must stay up for the others). `Tests/Postgres/with-server.sh` starts it and waits on
/// its standard input; closing that (in `close()`, or by the test process ending) makes the
/// script stop the server and remove its folder.
final class PrivatePostgres: @unchecked Sendable {
    // @unchecked Sendable: the process and pipe are only touched by the test that owns them.
    private let process = Process()
    private let input = Pipe()
    /// A libpq URI of the server's `postgres` database.
    let uri: String
    private let control: String

    init() throws {
        let output = Pipe()
        // The test's ends of both pipes are closed on exec: a process started later (the server
        // under test, the restarted PostgreSQL) must not hold the script's input open, or closing
        // it would never reach the script.
        for fd in [input.fileHandleForWriting.fileDescriptor, output.fileHandleForReading.fileDescriptor] {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [repositoryRoot.appendingPathComponent("Tests/Postgres/with-server.sh").path, "bash", "-c",
                             #"echo "$GEOSERVE_TEST_POSTGRES $GEOSERVE_TEST_POSTGRES_CONTROL"; read -r _"#]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self).split(separator: " ")
        guard line.count == 2 else {
            process.terminate()
            throw LiveServerError(description: "the private PostgreSQL did not start")
        }
        uri = String(line[0])
        control = String(line[1])
    }

    /// Stops the server (`fast`: sessions are ended, as in a restart).
    func stop(mode: String = "fast") throws { try run("stop", mode) }

    func start() throws { try run("start") }

    /// Runs a control script and waits for it.
    private func run(_ script: String, _ arguments: String...) throws {
        let status = try spawnAndWait("\(control)/\(script)", arguments)
        guard status == 0 else { throw LiveServerError(description: "PostgreSQL \(script) failed (status \(status))") }
    }

    /// Stops the server and removes its folder.
    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { close() }
    }
}

extension FileHandle {
    /// Reads up to the first newline (blocking).
    func availableLine() -> Data {
        var line = Data()
        while let byte = try? read(upToCount: 1), let b = byte.first, b != UInt8(ascii: "\n") { line.append(b) }
        return line
    }
}
