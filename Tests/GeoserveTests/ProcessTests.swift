import Foundation
import Testing

@Suite("the service as a process", .serialized)
struct ProcessTests {
    @Test("serve starts on the demo campus, answers, and exits cleanly on SIGTERM and on SIGINT")
    func gracefulStop() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try testDatabase(in: folder, named: "var/g.sqlite")
        for signal in [SIGTERM, SIGINT] {
            let server = try await LiveServer(database: db, demoData: repositoryRoot.appendingPathComponent("data").path)
            let (status, body) = try await server.get("/readyz")
            #expect(status == 200)
            #expect(String(decoding: body, as: UTF8.self).contains(#""layers":3"#))
            #expect(try await server.stop(signal: signal) == 0)
        }
    }

    @Test("a bad environment value stops serve with a clear message and a non-zero exit")
    func badEnvironment() throws {
        let p = Process()
        p.executableURL = LiveServer.executable
        p.arguments = ["serve", "--demo-data", "none"]
        p.environment = ["GEOSERVE_PORT": "eighty"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus != 0)
        #expect(text.contains("GEOSERVE_PORT=eighty is not a whole number"))
    }

    @Test("exit status: 1 with Error and no usage when a command cannot do its work (a damaged key file), 64 with the usage only when it is called wrongly")
    func exitStatus() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = folder.appendingPathComponent("damaged.keys")
        try Data("receipts 12\n".utf8).write(to: keys)
        let database = folder.appendingPathComponent("g.sqlite").path
        let (failed, said) = try runGeoserve(["migrate", "--database", database, "--keys", keys.path])
        #expect(failed == 1 && said.contains("is damaged") && !said.contains("Usage:"), "\(failed): \(said)")
        let (wrong, usage) = try runGeoserve(["migrate", "--database", database, "--time-zone", "Nowhere/Else"])
        #expect(wrong == 64 && usage.contains("unknown time zone") && usage.contains("Usage:"), "\(wrong): \(usage)")
        let (missing, note) = try runGeoserve(["restore", folder.appendingPathComponent("none.backup").path, "--database", folder.appendingPathComponent("r.sqlite").path])
        #expect(missing == 1 && note.contains("no backup at") && !note.contains("Usage:"), "\(missing): \(note)")
    }

    @Test("geoserve config prints a file that reads back as the same configuration, the secret by its file")
    func configReadsBack() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("webhook.secret")
        try Data("a-signing-secret-of-more-than-32-characters\n".utf8).write(to: secret)
        func config(_ arguments: [String], environment: [String: String]) throws -> (Int32, String) {
            try runGeoserve(["config"] + arguments, environment: environment, reading: .output)
        }
        let (status, first) = try config(["--database", "postgres://geoserve@db.campus.example/geoserve", "--keys", folder.appendingPathComponent("k").path,
                                          "--webhooks", "https://hooks.campus.example/in", "--webhook-secret-file", secret.path,
                                          "--port", "8123", "--shutdown-grace", "30"], environment: [:])
        #expect(status == 0)
        // The file as an environment, nothing else: the same configuration comes out.
        var environment: [String: String] = [:]
        for line in first.split(separator: "\n") where !line.hasPrefix("#") {
            let pair = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if pair.count == 2 { environment[String(pair[0])] = String(pair[1]) }
        }
        #expect(environment["GEOSERVE_WEBHOOK_SECRET_FILE"] == secret.path && environment["GEOSERVE_WEBHOOK_SECRET"] == nil)
        let (again, second) = try config([], environment: environment)
        #expect(again == 0 && second == first, "\(second)")
    }
}

/// Runs the geoserve binary to its end with only `environment`; its exit status and what it
/// wrote to standard error (or, `reading: .output`, standard output).
private enum Stream { case error, output }
private func runGeoserve(_ arguments: [String], environment: [String: String] = [:], reading: Stream = .error) throws -> (Int32, String) {
    let p = Process()
    p.executableURL = LiveServer.executable
    p.arguments = arguments
    p.environment = environment
    let pipe = Pipe()
    if reading == .error { p.standardError = pipe; p.standardOutput = FileHandle.nullDevice } else { p.standardOutput = pipe; p.standardError = FileHandle.nullDevice }
    try ProcessLaunch.lock.withLock { try p.run() }
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return (p.terminationStatus, text)
}
