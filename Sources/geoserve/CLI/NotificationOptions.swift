import ArgumentParser
import Foundation
import GeoserveApp

/// Where status notifications go. The secret comes from the environment or a file, never a
/// flag, which other users of the machine could read in the process list.
struct NotificationOptions: ParsableArguments {
    @Option(name: .customLong("webhooks"), help: ArgumentHelp("Addresses that receive a signed POST when a report's status changes, comma-separated (env GEOSERVE_WEBHOOKS, default none).", valueName: "urls"))
    var webhooks: String?

    @Option(name: .customLong("webhook-secret-file"), help: ArgumentHelp("File holding the signing secret, 32 characters or more (env GEOSERVE_WEBHOOK_SECRET_FILE; or the secret itself in GEOSERVE_WEBHOOK_SECRET).", valueName: "path"))
    var secretFile: String?

    @Flag(name: .customLong("webhook-allow-local"), help: "Allow webhooks to loopback and link-local addresses, for a receiver on this machine (or env GEOSERVE_WEBHOOK_ALLOW_LOCAL=1).")
    var allowLocal = false

    func apply(to config: inout AppConfiguration) throws {
        let addresses = EnvironmentDefault.string(webhooks, "GEOSERVE_WEBHOOKS", "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var secret = ProcessInfo.processInfo.environment["GEOSERVE_WEBHOOK_SECRET"] ?? ""
        let file = EnvironmentDefault.string(secretFile, "GEOSERVE_WEBHOOK_SECRET_FILE", "")
        let secretFile = file.isEmpty ? nil : file
        config.webhookSecretFile = secretFile
        if let secretFile {
            do {
                secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw CommandFailure("the webhook secret file \(secretFile) cannot be read: \(error.localizedDescription)")
            }
        }
        let local = allowLocal || ProcessInfo.processInfo.environment["GEOSERVE_WEBHOOK_ALLOW_LOCAL"] == "1"
        do { config.webhooks = try WebhookConfiguration(addresses: addresses, secret: secret, allowingLocal: local) } catch {
            throw ValidationError(error.description)
        }
    }
}
