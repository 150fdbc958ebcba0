import ArgumentParser
import DomainKernel
import Foundation
import GeoserveApp
import Storage

struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks",
        abstract: "The status notifications' receivers: their secrets, and what has not reached them.",
        subcommands: [WebhookSecretsCommand.self, WebhookFailingCommand.self]
    )
}

struct WebhookSecretsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets",
        abstract: "Print the secret each configured webhook verifies its deliveries with.",
        discussion: "Each receiver has its own secret, derived from the installation's webhook secret and its address, so a delivery captured at one receiver does not verify at another. Give each receiver its line; the output is as secret as the webhook secret itself."
    )

    @OptionGroup(title: "Notifications") var notifications: NotificationOptions

    func run() async throws {
        var config = AppConfiguration()
        try notifications.apply(to: &config)
        guard !config.webhooks.endpoints.isEmpty else {
            printError("no webhooks are configured (--webhooks or GEOSERVE_WEBHOOKS)")
            throw ExitCode(1)
        }
        for endpoint in config.webhooks.endpoints { print("\(endpoint.shown)\t\(endpoint.secret)") }
    }
}

struct WebhookFailingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "failing",
        abstract: "List the status notifications that have failed to reach a webhook, oldest first; exit 1 if there are any.",
        discussion: "Each keeps being tried (after 5 s doubling to an hour, each wait times 0.8–1.2 at random) until every receiver answers 2xx. The last error says why: a receiver that is down, answers 4xx or 5xx, redirects (not followed), or resolves to a loopback or link-local address."
    )

    @Option(help: "At most this many.")
    var limit = 100

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let db = try await store.open()
        let failing = try await db.failingNotifications(limit: max(1, limit))
        let backlog = try await db.notificationBacklog()
        print("\(backlog) event(s) not yet delivered everywhere; \(failing.count)\(failing.count == limit ? "+" : "") failing")
        let now = Date()
        for event in failing {
            let age = Int(now.timeIntervalSince(event.at))
            let next = max(0, Int(event.nextAttempt.timeIntervalSince(now)))
            print("\(event.id)\t\(event.status.rawValue)\t\(age) s old\t\(event.attempts) attempt(s)\tnext in \(next) s\t\(event.lastError)")
        }
        if !failing.isEmpty { throw ExitCode(1) }
    }
}
