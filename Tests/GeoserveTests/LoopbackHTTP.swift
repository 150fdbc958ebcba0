import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 exchange with a server on a loopback port, on a connection of its own that the
/// request asks to close: what the tests of live processes send. FoundationNetworking's client
/// now and then stalled a request to its 60-second timeout when dozens of suites ran at once,
/// long after the server had answered; a plain socket leaves only the server to wait for.
enum LoopbackHTTP {
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: Data
    }

    /// Sends the request and reads the whole answer; throws when nothing complete came within
    /// `timeout`. The blocking reads run on a thread of their own, not the test's executor.
    static func exchange(port: Int, method: String, path: String, body: Data? = nil, headers: [String: String] = [:],
                         timeout: Duration = .seconds(30)) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try exchangeNow(port: port, method: method, path: path, body: body, headers: headers, timeout: timeout) })
            }
        }
    }

    /// A request that never reached the server whole (the connection refused it, or reset while
    /// it was sent) is sent again, on a new connection, twice at most: the server cannot have
    /// acted on it. So is a GET or HEAD the server closed without a byte of answer.
    private static func exchangeNow(port: Int, method: String, path: String, body: Data?, headers: [String: String], timeout: Duration) throws -> Answer {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try exchangeOnce(port: port, method: method, path: path, body: body, headers: headers, timeout: timeout)
            } catch is NotDelivered where attempt < 3 {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// The request did not reach the server, or a safe one was answered with nothing.
    private struct NotDelivered: Error, CustomStringConvertible {
        let description: String
    }

    private static func exchangeOnce(port: Int, method: String, path: String, body: Data?, headers: [String: String], timeout: Duration) throws -> Answer {
        let connection = try RawConnection(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" } else if method == "POST" || method == "PUT" || method == "PATCH" { head += "Content-Length: 0\r\n" }
        head += "\r\n"
        guard connection.send(Array(head.utf8) + Array(body ?? Data())) else {
            throw NotDelivered(description: "\(method) \(path): the server closed the connection before the request was sent")
        }
        let (bytes, closed) = connection.readAll(timeout: timeout)
        guard closed else { throw LiveServerError(description: "\(method) \(path): no complete answer within \(timeout)") }
        if bytes.isEmpty, method == "GET" || method == "HEAD" {
            throw NotDelivered(description: "\(method) \(path): the server closed the connection without an answer")
        }
        return try parse(bytes, what: "\(method) \(path)")
    }

    /// A response read to the end of its connection: status line, headers, and the body, whose
    /// chunked coding is undone.
    static func parse(_ bytes: [UInt8], what: String) throws -> Answer {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0...max(0, bytes.count - 4)).first(where: { bytes.count >= 4 && Array(bytes[$0..<$0 + 4]) == separator }) else {
            throw LiveServerError(description: "\(what): an answer without a complete head (\(bytes.count) bytes)")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw LiveServerError(description: "\(what): status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true { body = try dechunk(body, what: what) }
        return Answer(status: status, headers: headers, body: Data(body))
    }

    private static func dechunk(_ bytes: [UInt8], what: String) throws -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while true {
            guard let lineEnd = (i..<max(i, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else {
                throw LiveServerError(description: "\(what): a chunked body broke off")
            }
            let sizeText = String(decoding: bytes[i..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw LiveServerError(description: "\(what): chunk size \(sizeText)") }
            if size == 0 { return out }
            let start = lineEnd + 2
            guard start + size <= bytes.count else { throw LiveServerError(description: "\(what): a chunk broke off") }
            out += bytes[start..<start + size]
            i = start + size + 2
        }
    }
}
