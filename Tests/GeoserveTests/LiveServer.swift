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
                     "--anonymous-per-minute", "0"] + arguments
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
        try process.run()
        for _ in 0..<300 {
            if (try? await get("/healthz").0) == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw LiveServerError(description: "geoserve did not answer on port \(port)")
    }

    /// GET a path; returns status and body.
    func get(_ path: String) async throws -> (Int, Data) {
        try await request("GET", path)
    }

    /// One request on a connection of its own (`Connection: close`), off the cooperative pool.
    /// Not through `URLSession`: on Linux its shared session now and then leaves a request
    /// unanswered until its timeout while many tests use it at once, which failed tests whose
    /// server had answered.
    func request(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> (Int, Data) {
        let port = self.port
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Self.exchange(port: port, method, path, body: body, headers: headers) })
            }
        }
    }

    private static func exchange(port: Int, _ method: String, _ path: String, body: Data?, headers: [String: String]) throws -> (Int, Data) {
        let connection = try RawConnection(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if headers.keys.first(where: { $0.lowercased() == "accept" }) == nil { head += "Accept: */*\r\n" }
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        guard connection.send(Array((head + "\r\n").utf8) + (body.map { Array($0) } ?? [])) else {
            throw LiveServerError(description: "\(method) \(path): the server closed the connection")
        }
        let (bytes, closed) = connection.readAll(timeout: .seconds(60))
        guard closed, let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw LiveServerError(description: "\(method) \(path): no whole response within 60 s")
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        let chunked = lines.contains { $0.lowercased().hasPrefix("transfer-encoding:") && $0.lowercased().contains("chunked") }
        let rest = Array(bytes[end.upperBound...])
        return (status, method == "HEAD" ? Data() : Data(chunked ? try dechunk(rest) : rest))
    }

    /// The body of a chunked message.
    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while let lineEnd = bytes[i...].firstRange(of: Array("\r\n".utf8)) {
            let sizeText = String(decoding: bytes[i..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { break }
            if size == 0 { return out }
            let start = lineEnd.upperBound
            guard start + size <= bytes.count else { break }
            out += bytes[start..<start + size]
            i = start + size + 2
        }
        throw LiveServerError(description: "a chunked body that does not end")
    }

    /// Sends a signal and waits for the process to end; returns its exit status.
    func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(20)) async throws -> Int32 {
        kill(process.processIdentifier, signal)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                throw LiveServerError(description: "geoserve did not stop within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

struct LiveServerError: Error, CustomStringConvertible {
    let description: String
}
