import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import DomainKernel
import Synchronization
import Testing
@testable import GeoserveApp

/// A receiver on a loopback port at `/hook` and `/other`: it answers 500 to its first `failFirst`
/// requests, or 302 to `/elsewhere` while `redirecting`, then 204, and keeps what arrived
/// (`/elsewhere` included, which no delivery may reach).
final class WebhookReceiver: Sendable {
    struct Arrival: Sendable {
        let path: String
        let body: Data
        let signature: String
        let eventHeader: String
        let answered: Int
        var host = ""
    }

    let failFirst: Int
    let redirecting: Mutex<Bool>
    let arrivals = Mutex<[Arrival]>([])

    init(failFirst: Int = 0, redirecting: Bool = false) {
        self.failFirst = failFirst
        self.redirecting = Mutex(redirecting)
    }

    var application: some ApplicationProtocol {
        let router = Router()
        for path in ["hook", "other", "elsewhere"] {
            router.on(RouterPath(path), method: .post) { [self] request, _ -> Response in try await arrive(request, path: "/" + path) }
            router.on(RouterPath(path), method: .get) { [self] request, _ -> Response in try await arrive(request, path: "/" + path) }
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    private func arrive(_ request: Request, path: String) async throws -> Response {
        let body = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
        let redirect = path != "/elsewhere" && redirecting.withLock { $0 }
        let status = arrivals.withLock { list -> Int in
            let answer = redirect ? 302 : list.count < failFirst ? 500 : 204
            list.append(Arrival(path: path, body: body, signature: request.headers[HTTPField.Name(WebhookSignature.header)!] ?? "",
                                eventHeader: request.headers[HTTPField.Name("X-Geoserve-Event")!] ?? "", answered: answer,
                                host: request.head.authority ?? ""))
            return answer
        }
        return Response(status: .init(code: status), headers: redirect ? [.location: "/elsewhere"] : [:])
    }
}

@Suite("status notifications")
struct WebhookTests {
    static let secret = "a-webhook-secret-of-forty-characters-xx"

    @Test("status changes reach a webhook signed, retried after the receiver fails, every event id at least once, nothing personal in them")
    func delivery() async throws {
        let receiver = WebhookReceiver(failFirst: 2)
        try await receiver.application.test(.live) { hook in
            var service = try await TestService(demo: true)
            defer { service.remove() }
            service.configuration.webhooks = try WebhookConfiguration(addresses: ["http://127.0.0.1:\(hook.port!)/hook"], secret: Self.secret, allowingLocal: true)
            service.configuration.webhooks.firstRetry = 0.2
            try await service.run(.live) { client in
                let admin = try await client.login(TestService.adminEmail)
                let verifier = try await client.account("verifier", admin: admin).token
                var ids: [String] = []
                for hall in ["H01", "H02", "H03"] {
                    let (_, made) = try await client.json(.post, "/v1/reports", body: Drafts.covid(hall: hall))
                    ids.append(made["id"] as? String ?? "")
                }
                #expect(try await client.json(.post, "/v1/reports/\(ids[0])/transitions", token: verifier, body: #"{"transition":"verify"}"#).0 == .ok)
                #expect(try await client.json(.post, "/v1/reports/\(ids[1])/transitions", token: verifier,
                                              body: #"{"transition":"reject","reason":"the phone number does not answer"}"#).0 == .ok)
                #expect(try await client.json(.post, "/v1/reports/\(ids[0])/transitions", token: verifier,
                                              body: #"{"transition":"revoke","reason":"the test was a false positive"}"#).0 == .ok)
                let arrived = try await eventually(within: 15) {
                    Set(receiver.arrivals.withLock { $0 }.filter { $0.answered == 204 }.map(\.eventHeader)).count == 3
                }
                #expect(arrived, "every event delivered despite two failures")
            }
            let arrivals = receiver.arrivals.withLock { $0 }
            #expect(arrivals.prefix(2).allSatisfy { $0.answered == 500 })
            var delivered: [String: [String: Any]] = [:]
            let secret = service.configuration.webhooks.endpoints[0].secret
            for a in arrivals {
                #expect(WebhookSignature.verify(header: a.signature, body: a.body, secret: secret, now: Date()), "signature verifies")
                #expect(!WebhookSignature.verify(header: a.signature, body: a.body, secret: secret + "x", now: Date()))
                #expect(!WebhookSignature.verify(header: a.signature, body: a.body, secret: Self.secret, now: Date()), "the installation's secret itself signs nothing")
                let json = try #require(try JSONSerialization.jsonObject(with: a.body) as? [String: Any])
                #expect(json["id"] as? String == a.eventHeader, "the header names the event in the body")
                #expect(Set(json.keys) == ["id", "type", "at", "report"])
                let report = try #require(json["report"] as? [String: Any])
                #expect(Set(report.keys) == ["id", "kind", "status"], "nothing of the report beyond id, kind and status")
                let text = String(decoding: a.body, as: UTF8.self)
                #expect(!text.contains("336 555") && !text.contains("fever") && !text.contains("student"), "no phone number, notes or affiliation")
                if a.answered == 204 { delivered[a.eventHeader] = report }
            }
            // A failed event is sent again with the same id.
            let failedIDs = Set(arrivals.filter { $0.answered == 500 }.map(\.eventHeader))
            #expect(failedIDs.isSubset(of: Set(delivered.keys)))
            #expect(Set(delivered.values.map { "\($0["status"] ?? "")" }) == ["verified", "rejected", "revoked"])
            let store = try await openKeyedStore(service.configuration.database)
            #expect(try await store.notificationBacklog() == 0)
        }
    }

    @Test("webhooks need an absolute http(s) address and a secret of 32 characters")
    func configuration() {
        #expect(throws: WebhookConfigurationError.self) { try WebhookConfiguration(addresses: ["ftp://x.example/h"], secret: Self.secret) }
        #expect(throws: WebhookConfigurationError.self) { try WebhookConfiguration(addresses: ["https://x.example/h"], secret: "short") }
        #expect(throws: Never.self) { try WebhookConfiguration(addresses: [], secret: "") }
        let c = try? WebhookConfiguration(addresses: ["https://hooks.campus.example/geoserve?token=abc"], secret: Self.secret)
        #expect(c?.endpoints.first?.host == "hooks.campus.example" && c?.endpoints.first?.key.contains("abc") == false)
        // Loopback, link-local and unspecified hosts are refused unless allowed; private ranges are a campus's own.
        for local in ["http://127.0.0.1:9000/h", "http://localhost/h", "http://hooks.localhost/h", "http://169.254.169.254/latest/meta-data",
                      "http://[::1]:9000/h", "http://[fe80::1]/h", "http://0.0.0.0/h", "http://[::ffff:127.0.0.1]/h",
                      // The clouds' metadata services inside private ranges: AWS's IPv6 one, Alibaba's.
                      "http://[fd00:ec2::254]/latest/meta-data", "http://100.100.100.200/latest/meta-data"] {
            #expect(throws: WebhookConfigurationError.self, "\(local)") { try WebhookConfiguration(addresses: [local], secret: Self.secret) }
            #expect(throws: Never.self, "\(local)") { try WebhookConfiguration(addresses: [local], secret: Self.secret, allowingLocal: true) }
        }
        for remote in ["http://10.0.0.5/h", "https://192.168.1.20/h", "http://[fd00::5]/h", "http://[fd00:ec2::253]/h", "http://100.100.100.201/h",
                       "https://128.0.0.1/h", "https://hooks.campus.example/h"] {
            #expect(throws: Never.self, "\(remote)") { try WebhookConfiguration(addresses: [remote], secret: Self.secret) }
        }
        // Each endpoint verifies with a secret of its own, 64 hex characters, none the installation's.
        let two = try? WebhookConfiguration(addresses: ["https://a.campus.example/h", "https://b.campus.example/h"], secret: Self.secret)
        let secrets = two?.endpoints.map(\.secret) ?? []
        #expect(secrets.count == 2 && Set(secrets).count == 2 && secrets.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) && $0 != Self.secret })
        // Waits grow from 5 s and stop growing at an hour.
        #expect((4...6).contains(c?.retryDelay(afterFailures: 1) ?? 0) && (2_880...4_320).contains(c?.retryDelay(afterFailures: 30) ?? 0))
    }

    @Test("a receiver's redirect is a failed delivery, never followed; each endpoint's signature verifies only there; the failing events and the backlog are shown")
    func redirectsAndEndpoints() async throws {
        let receiver = WebhookReceiver(redirecting: true)
        try await receiver.application.test(.live) { hook in
            var service = try await TestService(demo: true)
            defer { service.remove() }
            let addresses = ["http://127.0.0.1:\(hook.port!)/hook", "http://127.0.0.1:\(hook.port!)/other"]
            service.configuration.webhooks = try WebhookConfiguration(addresses: addresses, secret: Self.secret, allowingLocal: true)
            service.configuration.webhooks.firstRetry = 0.2
            let metrics = ServiceMetrics()
            let endpoints = service.configuration.webhooks.endpoints
            let database = service.configuration.database
            try await service.run(.live, metrics: metrics) { client in
                let admin = try await client.login(TestService.adminEmail)
                let verifier = try await client.account("verifier", admin: admin).token
                let (_, made) = try await client.json(.post, "/v1/reports", body: Drafts.covid(hall: "H04"))
                let id = made["id"] as? String ?? ""
                #expect(try await client.json(.post, "/v1/reports/\(id)/transitions", token: verifier, body: #"{"transition":"verify"}"#).0 == .ok)
                let store = try await openKeyedStore(database)
                // Redirected: the event waits, failing, with the reason; nothing went to /elsewhere.
                #expect(try await eventually(within: 10) { (try await store.failingNotifications(limit: 10).first?.attempts ?? 0) >= 2 })
                let failing = try #require(try await store.failingNotifications(limit: 10).first)
                #expect(failing.status == .verified && failing.lastError.contains("302") && failing.lastError.contains("not followed"), "\(failing.lastError)")
                #expect(failing.deliveredTo == 0)
                #expect(receiver.arrivals.withLock { $0 }.allSatisfy { $0.path != "/elsewhere" }, "a redirect is never followed")
                #expect(try await eventually(within: 15) {
                    let text = String(decoding: metrics.exposition(), as: UTF8.self)
                    return sampleValue(text, "geoserve_webhook_backlog") == 1 && sampleValue(text, "geoserve_webhook_oldest_failing_seconds") > 0
                }, "the backlog gauges show the waiting event")
                // The receiver stops redirecting: delivered to both, and the dead letters empty.
                receiver.redirecting.withLock { $0 = false }
                #expect(try await eventually(within: 15) { try await store.notificationBacklog() == 0 })
                #expect(try await store.failingNotifications(limit: 10).isEmpty)
            }
            let delivered = receiver.arrivals.withLock { $0 }.filter { $0.answered == 204 }
            #expect(Set(delivered.map(\.path)) == ["/hook", "/other"])
            for a in delivered {
                let mine = endpoints[a.path == "/hook" ? 0 : 1].secret, theirs = endpoints[a.path == "/hook" ? 1 : 0].secret
                #expect(WebhookSignature.verify(header: a.signature, body: a.body, secret: mine, now: Date()), "\(a.path) verifies its own delivery")
                #expect(!WebhookSignature.verify(header: a.signature, body: a.body, secret: theirs, now: Date()), "a delivery captured at \(a.path) does not verify at the other")
            }
        }
    }

    @Test("a name is looked up before each delivery: one resolving to loopback counts as local")
    func resolution() async {
        #expect(await LocalAddress.resolvesLocal(host: "localhost"))
        #expect(await LocalAddress.resolvesLocal(host: "127.0.0.9"))
        #expect(await LocalAddress.resolvesLocal(host: "[::1]"))
        #expect(await !LocalAddress.resolvesLocal(host: "10.1.2.3"))
        #expect(await !LocalAddress.resolvesLocal(host: "no-such-host.invalid"), "a name that does not resolve fails as a delivery, not as local")
        #expect(await LocalAddress.resolve(host: "[::1]") == ["::1"])
        #expect(await LocalAddress.resolve(host: "no-such-host.invalid") == [])
    }

    @Test("a delivery over HTTP connects to the address it checked, naming the host in Host; a name that does not resolve is not sent")
    func connectsToCheckedAddress() async throws {
        let receiver = WebhookReceiver()
        let app = receiver.application
        try await app.test(.live) { client in
            let port = client.port!
            let delivering = WebhookClient(timeout: 10, allowsLocal: true)
            let url = URL(string: "http://localhost:\(port)/hook")!
            #expect(await delivering.post(Data("{}".utf8), to: url, eventID: "e1", signature: "s") == .delivered)
            let arrived = receiver.arrivals.withLock { $0 }
            #expect(arrived.map(\.path) == ["/hook"])
            #expect(arrived.first?.host == "localhost:\(port)", "the name, not the address connected to, in Host")
            // The connection goes to each checked address in turn, never to the name again.
            let targets = WebhookClient.targets(for: url, resolved: ["::1", "127.0.0.1"])
            #expect(targets.map(\.url.absoluteString) == ["http://[::1]:\(port)/hook", "http://127.0.0.1:\(port)/hook"])
            #expect(targets.allSatisfy { $0.host == "localhost:\(port)" })
            let https = WebhookClient.targets(for: URL(string: "https://hooks.campus.example/a")!, resolved: ["192.0.2.5"])
            #expect(https.map(\.url.absoluteString) == ["https://hooks.campus.example/a"] && https.first?.host == nil, "HTTPS keeps the name its certificate is checked for")
            #expect(WebhookClient.pinned(URL(string: "http://hooks.campus.example:8080/a?b=c")!, to: "192.0.2.5").absoluteString == "http://192.0.2.5:8080/a?b=c")
            #expect(WebhookClient.pinned(URL(string: "http://hooks.campus.example/a")!, to: "2001:db8::5").absoluteString == "http://[2001:db8::5]/a")
            let nowhere = await delivering.post(Data("{}".utf8), to: URL(string: "http://no-such-host.invalid/hook")!, eventID: "e2", signature: "s")
            #expect(nowhere == .failed("no-such-host.invalid does not resolve (not sent)"))
            // Without leave to post locally, a name resolving to loopback is refused before any connection.
            let refused = await WebhookClient(timeout: 10, allowsLocal: false).post(Data("{}".utf8), to: url, eventID: "e3", signature: "s")
            #expect(refused == .failed("localhost resolves to a loopback or link-local address (not sent)"))
            #expect(receiver.arrivals.withLock { $0.count } == 1)
        }
    }
}
