import Foundation
import FoundationNetworking
import Testing
@testable import GeoserveApp

/// Clients that are slow, stalled, oversized or malformed, against the release binary's own
/// HTTP stack (in-process router tests bypass the connection handlers).
@Suite("connection guard")
struct ConnectionGuardTests {
    /// A server on a fresh store with the demo campus, its log kept.
    static func server(_ arguments: [String], fileLimit: Int? = nil, in folder: URL) async throws -> LiveServer {
        try await LiveServer(database: try testDatabase(in: folder, named: "g.sqlite"), demoData: repositoryRoot.appendingPathComponent("data").path,
                             arguments: arguments, fileLimit: fileLimit, log: folder.appendingPathComponent("log"), logLevel: "notice")
    }

    static func json(_ body: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }

    @Test("300 clients trickling their heads at a process limited to 256 files are closed, logged, and do not keep others out")
    func stalledHeads() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server(["--header-timeout", "2"], fileLimit: 256, in: folder)
        let stalled = try (0..<300).map { _ in
            let c = try RawConnection(port: server.port)
            c.send("GET /healthz HTTP/1.1\r\nHo")
            return c
        }
        let started = ContinuousClock.now
        let (status, _) = try await server.get("/collections/halls/items?limit=5")
        #expect(status == 200)
        #expect(ContinuousClock.now - started < .seconds(15))
        // Every stalled client is closed in the end; the first ones two seconds after they began.
        let closed = stalled.prefix(20).filter { $0.readAll(timeout: .seconds(8)).closed }.count
        #expect(closed == 20)
        // Notice lines reach the file in batches every 100 ms, so the line may trail the close.
        let logged = try await eventually(within: 3) {
            let log = try String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)
            return log.contains("request head not complete in time")
        }
        #expect(logged)
        _ = try await server.stop()
    }

    @Test("a body that stalls gets 408 in the JSON shape and the connection closes; an idle keep-alive connection closes")
    func stalledBodyAndIdle() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server(["--body-timeout", "1", "--keep-alive-timeout", "1"], in: folder)
        let c = try RawConnection(port: server.port)
        c.send("POST /v1/reports HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"kind\":")
        let answer = c.readResponse(timeout: .seconds(6))
        #expect(answer?.head.hasPrefix("HTTP/1.1 408") == true)
        #expect(errorCode(Self.json(answer?.body ?? "")) == "request_timeout")
        #expect(c.readAll(timeout: .seconds(4)).closed)

        let idle = try RawConnection(port: server.port)
        idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.readResponse(timeout: .seconds(5))?.head.hasPrefix("HTTP/1.1 200") == true)
        let started = ContinuousClock.now
        #expect(idle.readAll(timeout: .seconds(6)).closed)
        #expect(ContinuousClock.now - started >= .milliseconds(800))
        _ = try await server.stop()
    }

    @Test("oversized bodies answer 413 too_large, declared or chunked, and the server closes instead of reading the rest")
    func oversizedBodies() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server([], in: folder)
        // Declared beyond any route's limit: refused from the head alone.
        let huge = try RawConnection(port: server.port)
        huge.send("POST /v1/reports HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n")
        let first = huge.readResponse(timeout: .seconds(5))
        #expect(first?.head.hasPrefix("HTTP/1.1 413") == true && errorCode(Self.json(first?.body ?? "")) == "too_large")
        #expect(huge.readAll(timeout: .seconds(5)).closed)

        // Declared over the JSON limit (256 KiB) but under the upload limit: the route refuses it
        // unread, and the connection closes long before 32 MiB could be sent.
        let big = try RawConnection(port: server.port)
        let length = 32 << 20
        big.send("POST /v1/reports HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n")
        let second = big.readResponse(timeout: .seconds(5))
        #expect(second?.head.hasPrefix("HTTP/1.1 413") == true && errorCode(Self.json(second?.body ?? "")) == "too_large")
        let chunk = [UInt8](repeating: 0x20, count: 64 << 10)
        var sent = 0
        while sent < length, big.send(chunk) { sent += chunk.count }
        #expect(sent < length / 2, "the server read \(sent) bytes of a refused body")

        // Chunked, so no length is declared: the limit trips while reading.
        let chunked = try RawConnection(port: server.port)
        let notes = String(repeating: "n", count: 300_000)
        let body = #"{"kind":"covid","notes":"\#(notes)"}"#
        chunked.send("POST /v1/reports HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                     + String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n")
        let third = chunked.readResponse(timeout: .seconds(5))
        #expect(third?.head.hasPrefix("HTTP/1.1 413") == true && errorCode(Self.json(third?.body ?? "")) == "too_large")
        _ = try await server.stop()
        // Read once the process has ended, so its last batch of lines is in the file.
        let log = try String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)
        #expect(!log.contains("NIOTooManyBytesError") && !log.contains("unhandled error"))
    }

    @Test("requests that never reach a route (huge header, huge URL, bad framing) get the JSON error shape")
    func malformedRequests() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server([], in: folder)
        let cases: [(String, String, String)] = [
            ("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n", "431", "header_too_large"),
            ("GET /collections?\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\nHost: x\r\n\r\n", "431", "header_too_large"),
            ("POST /v1/reports HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", "400", "bad_request"),
            ("POST /v1/reports HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "400", "bad_request"),
        ]
        for (request, status, code) in cases {
            let c = try RawConnection(port: server.port)
            c.send(request)
            let answer = c.readResponse(timeout: .seconds(5))
            #expect(answer?.head.hasPrefix("HTTP/1.1 \(status)") == true, "\(request.prefix(40))")
            #expect(answer?.head.lowercased().contains("content-type: application/json") == true)
            #expect(errorCode(Self.json(answer?.body ?? "")) == code, "\(request.prefix(40))")
        }
        #expect(try await server.get("/healthz").0 == 200)
        _ = try await server.stop()
    }
}
