import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import Synchronization
import Testing
@testable import GeoserveApp

/// A receiver on a loopback port: it answers 500 to its first `failFirst` requests, then 204,
/// and keeps what arrived.
final class WebhookReceiver: Sendable {
    struct Arrival: Sendable {
        let body: Data
        let signature: String
        let eventHeader: String
        let answered: Int
    }

    let failFirst: Int
    let arrivals = Mutex<[Arrival]>([])

    init(failFirst: Int) {
        self.failFirst = failFirst
    }

    var application: some ApplicationProtocol {
        let router = Router()
        router.post("hook") { [self] request, _ -> Response in
            let body = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            let status = arrivals.withLock { list -> Int in
                let answer = list.count < failFirst ? 500 : 204
                list.append(Arrival(body: body, signature: request.headers[HTTPField.Name(WebhookSignature.header)!] ?? "",
                                    eventHeader: request.headers[HTTPField.Name("X-Geoserve-Event")!] ?? "", answered: answer))
                return answer
            }
            return Response(status: .init(code: status))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
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
            service.configuration.webhooks = try WebhookConfiguration(addresses: ["http://127.0.0.1:\(hook.port!)/hook"], secret: Self.secret)
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
            for a in arrivals {
                #expect(WebhookSignature.verify(header: a.signature, body: a.body, secret: Self.secret, now: Date()), "signature verifies")
                #expect(!WebhookSignature.verify(header: a.signature, body: a.body, secret: Self.secret + "x", now: Date()))
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
        // Waits grow from 5 s and stop growing at an hour.
        #expect((4...6).contains(c?.retryDelay(afterFailures: 1) ?? 0) && (2_880...4_320).contains(c?.retryDelay(afterFailures: 30) ?? 0))
    }
}
