import Foundation
import Testing
@testable import GeoserveApp

/// Links in public, cacheable responses never come from a Host header the operator did not
/// allow: `Host: evil.example` would otherwise be cached into every later reader's links.
@Suite("links and the Host header")
struct LinkBaseTests {
    @Test("only allowed hosts, ports aside, are believed; * believes any")
    func allowList() {
        let links = LinkBase(publicURL: nil, allowedHosts: LinkBase.localHosts, listenAddress: "http://localhost:8080")
        #expect(links.isAllowed("localhost:8080") && links.isAllowed("127.0.0.1") && links.isAllowed("[::1]:9000") && links.isAllowed("LOCALHOST"))
        #expect(!links.isAllowed("evil.example") && !links.isAllowed("evil.example:8080") && !links.isAllowed("localhost.evil.example"))
        #expect(LinkBase(publicURL: nil, allowedHosts: ["*"], listenAddress: "").isAllowed("anything.example"))
    }

    @Test("a foreign Host gets links relative to the root, the same from every process; an allowed one its own; --public-url wins over both")
    func foreignHost() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ConnectionGuardTests.server([], in: folder)
        func body(_ path: String, host: String) -> String {
            guard let c = try? RawConnection(port: server.port) else { return "" }
            c.send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            return c.readResponse(timeout: .seconds(5))?.body ?? ""
        }
        // A second process on the same store, on another port, as behind one proxy.
        let second = try await LiveServer(database: server.database, demoData: nil, arguments: ["--publish-at", "never"])
        func head(_ port: Int, _ path: String, host: String) -> (etag: String, body: String) {
            guard let c = try? RawConnection(port: port) else { return ("", "") }
            c.send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            let answer = c.readResponse(timeout: .seconds(5))
            let tag = answer?.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") } ?? ""
            return (String(tag), answer?.body ?? "")
        }
        for path in ["/collections", "/collections/halls/items?limit=1", "/tiles/halls.json"] {
            let evil = body(path, host: "evil.example")
            #expect(!evil.contains("evil.example") && !evil.contains("127.0.0.1"), "\(path)")
            #expect(evil.contains(#""/collections"#) || evil.contains(#""/tiles/"#), "\(path): links relative to the root")
            #expect(body(path, host: "localhost:\(server.port)").contains("http://localhost:\(server.port)/"), "\(path)")
            let (one, two) = (head(server.port, path, host: "maps.campus.example"), head(second.port, path, host: "maps.campus.example"))
            #expect(!one.etag.isEmpty && one.etag == two.etag && one.body == two.body, "\(path): \(one.etag) / \(two.etag)")
        }
        _ = try await second.stop()
        _ = try await server.stop()

        let other = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: other) }
        let behindProxy = try await ConnectionGuardTests.server(["--public-url", "https://maps.campus.example"], in: other)
        let c = try RawConnection(port: behindProxy.port)
        c.send("GET /collections HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        let text = c.readResponse(timeout: .seconds(5))?.body ?? ""
        #expect(text.contains("https://maps.campus.example/collections") && !text.contains("evil.example"))
        _ = try await behindProxy.stop()
    }
}
