import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `geoserve` executable running as a separate process on a loopback port: for the tests
/// where process behaviour matters (signals, crashes, restarts).
final class LiveServer: @unchecked Sendable {
    // @unchecked Sendable: the process handle is only touched from the test that owns the server.
    let process = Process()
    let port: Int
    let database: String

    /// The executable built next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("geoserve")
    }

    /// A port that was free a moment ago.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Starts `geoserve serve` and waits until `/healthz` answers.
    /// - Parameters:
    ///   - arguments: more flags for `serve`.
    ///   - fileLimit: the process's limit of open files, set with `ulimit -n` before it starts.
    ///   - log: where its standard error goes (the log), else inherited.
    init(database: String, demoData: String?, port: Int = LiveServer.freePort(), arguments: [String] = [], fileLimit: Int? = nil,
         log: URL? = nil, logLevel: String = "error") async throws {
        self.port = port
        self.database = database
        var serve = ["serve", "--port", "\(port)", "--database", database, "--demo-data", demoData ?? "none", "--log-level", logLevel,
                     "--anonymous-per-minute", "0", "--max-pending-anonymous", "0"] + arguments
        // A test stops many servers; the drain has tests of its own.
        if !arguments.contains("--drain-delay") { serve += ["--drain-delay", "0"] }
        // Processes on one PostgreSQL database share one key file, kept out of the working folder.
        if database.hasPrefix("postgres"), !arguments.contains("--keys") {
            serve += ["--keys", testKeysPath(for: database)]
        }
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", Self.executable.path] + serve
        } else {
            process.executableURL = Self.executable
            process.arguments = serve
        }
        if let log {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
        }
        process.standardOutput = FileHandle.nullDevice
        try ProcessLaunch.lock.withLock { try process.run() }
        // A deadline, not a count of tries: the whole suite starts at once on two cores, and a
        // process importing the demo campus into PostgreSQL then took over 25 s to answer.
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            if (try? await get("/healthz").0) == 200 { return }
            guard process.isRunning else {
                throw LiveServerError(description: "geoserve exited with status \(process.terminationStatus) before answering on port \(port)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        killTree()
        throw LiveServerError(description: "geoserve did not answer on port \(port) within 90 s")
    }

    /// GET a path; returns status and body.
    func get(_ path: String) async throws -> (Int, Data) {
        try await request("GET", path)
    }

    func request(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> (Int, Data) {
        let answer = try await LoopbackHTTP.exchange(port: port, method: method, path: path, body: body, headers: headers)
        return (answer.status, answer.body)
    }

    /// Sends a signal and waits for the process to end; returns its exit status.
    func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(20)) async throws -> Int32 {
        kill(process.processIdentifier, signal)
        var deadline = ContinuousClock.now + timeout
        var waitedForReport = false
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                // A process with a child of its own is writing a crash report (Swift's backtracer
                // symbolicating a debug build took over 20 s on a loaded machine): let it finish,
                // so that the test's output says where it crashed.
                if !waitedForReport, !Self.children(of: process.processIdentifier).isEmpty {
                    waitedForReport = true
                    deadline = ContinuousClock.now + .seconds(60)
                    continue
                }
                killTree()
                throw LiveServerError(description: "geoserve did not stop within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    /// Kills the process and its children first. A crashed server's backtracer holds the test
    /// run's standard error and, once the server dies under it, waits for it forever: the test
    /// command's output would then never end.
    private func killTree() {
        let pid = process.processIdentifier
        for child in Self.children(of: pid) { kill(child, SIGKILL) }
        kill(pid, SIGKILL)
    }

    /// The processes `pid` started that still run (Linux's /proc/PID/task/TID/children).
    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [Int32] in
            let listed = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return listed.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    deinit {
        if process.isRunning { killTree() }
    }
}

struct LiveServerError: Error, CustomStringConvertible {
    let description: String
}
