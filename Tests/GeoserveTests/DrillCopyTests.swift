import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import Synchronization
import Testing
@testable import GeoserveApp
@testable import geoserve

/// A restored copy served with production's configuration must not act as production.
@Suite("drill copies")
struct DrillCopyTests {
    @Test("a drill copy served with production's webhooks and schedule sends nothing and publishes nothing; promoted, it sends what waits and publishes")
    func drill() async throws {
        let receiver = WebhookReceiver()
        try await receiver.application.test(.live) { hook in
            var service = try await TestService(demo: true)
            defer { service.remove() }
            service.configuration.webhooks = try WebhookConfiguration(addresses: ["http://127.0.0.1:\(hook.port!)/hook"], secret: WebhookTests.secret,
                                                                      allowingLocal: true)
            service.configuration.webhooks.firstRetry = 0.2
            service.configuration.notificationBacklogInterval = .milliseconds(200)
            let store = try await openKeyedStore(service.configuration.database)
            try await DrillCopy.mark(store, at: Date())
            let metrics = ServiceMetrics()
            try await service.run(.live, metrics: metrics) { client in
                // It serves, and says what it is: in /readyz and in a gauge an alert rule reads.
                let (ready, readiness) = try await client.json(.get, "/readyz")
                #expect(ready == .ok && (readiness["drillCopy"] as? [String: Any])?["since"] is String, "\(readiness)")
                #expect(String(decoding: metrics.exposition(), as: UTF8.self).contains("\ngeoserve_drill_copy 1"))
                let admin = try await client.login(TestService.adminEmail)
                let verifier = try await client.account("verifier", admin: admin).token
                let (_, made) = try await client.json(.post, "/v1/reports", body: Drafts.covid(hall: "H05"))
                let id = made["id"] as? String ?? ""
                #expect(try await client.json(.post, "/v1/reports/\(id)/transitions", token: verifier, body: #"{"transition":"verify"}"#).0 == .ok)
                // The backlog gauge is kept though nothing is sent: the documented alert can fire.
                let counted = try await eventually(within: 30) {
                    String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n")
                        .contains { $0.hasPrefix("geoserve_webhook_backlog ") && (Double($0.split(separator: " ")[1]) ?? 0) >= 1 }
                }
                #expect(counted, "the backlog gauge counts the waiting event on a drill copy")
                // It announces no scheduled publication, and says why.
                let (_, listing) = try await client.json(.get, "/v1/publications")
                let schedule = listing["schedule"] as? [String: Any] ?? [:]
                #expect(schedule["next"] == nil && (schedule["paused"] as? String)?.contains("drill copy") == true, "\(listing)")
                // The dispatcher looks each second; three are plenty to see that it does not run.
                try await Task.sleep(for: .seconds(3))
            }
            #expect(receiver.arrivals.withLock { $0 }.isEmpty, "a drill copy sends nothing")
            #expect(try await store.publications().isEmpty, "nor publishes at start")
            #expect(try await store.notificationBacklog() >= 1, "the event waits in the outbox")

            #expect(try await DrillCopy.promote(store))
            #expect(try await DrillCopy.since(store) == nil)
            let promoted = ServiceMetrics()
            try await service.run(.live, metrics: promoted) { client in
                let (_, readiness) = try await client.json(.get, "/readyz")
                #expect(readiness["drillCopy"] == nil)
                #expect(String(decoding: promoted.exposition(), as: UTF8.self).contains("\ngeoserve_drill_copy 0"))
                let (_, listing) = try await client.json(.get, "/v1/publications")
                let schedule = listing["schedule"] as? [String: Any] ?? [:]
                #expect(schedule["next"] is String && schedule["paused"] == nil, "\(listing)")
                let sent = try await eventually(within: 15) { receiver.arrivals.withLock { $0 }.contains { $0.answered == 204 } }
                #expect(sent, "promoted, it sends what waited")
            }
            let published = try await store.publications()
            #expect(!published.isEmpty, "promoted, it publishes on its schedule")
        }
    }
}
