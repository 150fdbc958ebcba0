import Foundation
import Testing
@testable import GeoserveApp

@Suite("metrics port")
struct MetricsPortTests {
    @Test("--metrics-port serves /metrics and nothing else, its connections behind the connection guard")
    func metricsPort() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = LiveServer.freePort()
        let server = try await LiveServer(database: try testDatabase(in: folder, named: "g.sqlite"), demoData: nil,
                                          arguments: ["--metrics-port", "\(port)", "--publish-at", "never"])
        // The second listener starts beside the first; give it a moment.
        var scrape: LoopbackHTTP.Answer?
        _ = try await eventually(within: 10) {
            scrape = try? await LoopbackHTTP.exchange(port: port, method: "GET", path: "/metrics")
            return scrape != nil
        }
        #expect(scrape?.status == 200)
        let text = String(decoding: scrape?.body ?? Data(), as: UTF8.self)
        #expect(text.contains("geoserve_http_requests_total"))
        let other = try await LoopbackHTTP.exchange(port: port, method: "GET", path: "/healthz")
        #expect(other.status == 404, "only /metrics is served there")
        // The guard refuses a declared body over its bound from the head alone, in the API's shape;
        // without it Hummingbird would read the body.
        let raw = try RawConnection(port: port)
        #expect(raw.send("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n"))
        let refused = raw.readResponse(timeout: .seconds(10))
        #expect(refused?.head.hasPrefix("HTTP/1.1 413") == true, "\(refused?.head ?? "no answer")")
        let body = refused?.body ?? ""
        #expect(body.contains("too_large"), "\(body)")
        #expect(try await server.stop() == 0)
    }
}
