import Foundation
import Testing
@testable import GeoserveApp

/// Secrets never reach a log, at any level: the service lifecycle describes its services at
/// debug and trace level, and a service holding webhook secrets used to describe itself whole.
@Suite("secrets in logs")
struct SecretLogTests {
    @Test("a service started at trace level with webhooks logs neither the installation's webhook secret nor an endpoint's, nor the receiver's address")
    func traceLogHoldsNoSecret() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = "trace-level-webhook-secret-\(UUID().uuidString)"
        let secretFile = folder.appendingPathComponent("webhook.secret")
        try secret.write(to: secretFile, atomically: true, encoding: .utf8)
        // Nothing listens there: deliveries fail and are logged, which is what the log should
        // show without the address's secret path.
        let receiver = "http://127.0.0.1:9/hook-\(UUID().uuidString)"
        let log = folder.appendingPathComponent("server.log")
        let server = try await LiveServer(database: try testDatabase(in: folder, named: "g.sqlite"), demoData: repositoryRoot.appendingPathComponent("data").path,
                                          arguments: ["--webhooks", receiver, "--webhook-secret-file", secretFile.path, "--webhook-allow-local"],
                                          log: log, logLevel: "trace")
        let (status, _) = try await server.request("POST", "/v1/reports", body: Data(Drafts.covid().utf8), headers: ["Content-Type": "application/json"])
        #expect(status == 201)
        _ = try await server.stop()
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.count > 1_000, "the trace log has content to search")
        #expect(!text.contains(secret))
        let endpointSecret = WebhookConfiguration.endpointSecret(secret, address: receiver)
        #expect(!text.contains(endpointSecret))
        #expect(!text.contains(receiver))
        #expect(text.contains("NotificationDispatcher(redacted)") || !text.contains("NotificationDispatcher"), "the dispatcher is described without its fields")
    }
}
