import Crypto
import Foundation
import Support

/// Where status notifications go and the secrets that sign them. Endpoints are named in the
/// store and the logs by a digest or their host, never by the whole address, which may carry a
/// token of the receiver's.
package struct WebhookConfiguration: Sendable, RedactedDescription {
    package struct Endpoint: Sendable, Hashable, RedactedDescription {
        let url: URL
        /// A digest of the address: what the store records deliveries under.
        let key: String
        /// The host, for logs.
        let host: String
        /// The secret this endpoint's deliveries are signed with: the installation's webhook
        /// secret bound to this address, so a delivery captured at one receiver does not verify
        /// at another (`geoserve webhooks secrets` prints it for the receiver).
        package let secret: String

        /// The address with any user, password or query masked (they may hold the receiver's
        /// token), for `geoserve config`.
        package var shown: String {
            guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "***" }
            if parts.user != nil || parts.password != nil { parts.user = "***"; parts.password = nil }
            if parts.query != nil { parts.query = "***" }
            return parts.string ?? "***"
        }

        /// The address as a log shows it: its scheme, host and port only. A receiver's path often
        /// is its token (`/services/T0/B0/XXXX`), and logs travel further than the configuration.
        package var logged: String {
            guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = parts.scheme, let host = parts.host else { return "***" }
            let bracketed = host.contains(":") ? "[\(host)]" : host
            return "\(scheme)://\(bracketed)\(parts.port.map { ":\($0)" } ?? "")/***"
        }
    }

    package let endpoints: [Endpoint]
    package let secret: String
    /// Whether endpoints on loopback or link-local addresses are allowed (a receiver on the same
    /// machine). Off by default: a configuration naming `169.254.169.254` would otherwise post to
    /// a cloud's metadata service, and one naming `localhost` to whatever listens there.
    package let allowsLocal: Bool
    /// How long one delivery may take.
    var timeout: TimeInterval = 10
    /// Backoff after the n-th failure: 5 s doubling, at most an hour, each wait ×0.8–1.2 (`retryDelay`).
    var firstRetry: TimeInterval = 5
    var longestRetry: TimeInterval = 3600

    static let minimumSecretLength = 32

    /// Checks the addresses (absolute http or https, not loopback or link-local unless
    /// `allowingLocal`) and the secret (32 characters or more).
    package init(addresses: [String], secret: String, allowingLocal: Bool = false) throws(WebhookConfigurationError) {
        var endpoints: [Endpoint] = []
        for address in addresses where !address.isEmpty {
            guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host, !host.isEmpty else {
                throw WebhookConfigurationError(description: "webhook \"\(address)\" is not an absolute http or https address")
            }
            if url.query == "***" || url.user == "***" {
                throw WebhookConfigurationError(description: "webhook \(host) is masked (***) as geoserve config prints it: give its real address")
            }
            if !allowingLocal, LocalAddress.isLocal(host: host) {
                throw WebhookConfigurationError(description: "webhook host \(host) is a loopback or link-local address; "
                    + "set --webhook-allow-local (GEOSERVE_WEBHOOK_ALLOW_LOCAL=1) if the receiver really runs on this machine")
            }
            let key = SHA256.hash(data: Data(address.utf8)).prefix(16).hexString
            endpoints.append(Endpoint(url: url, key: key, host: host, secret: Self.endpointSecret(secret, address: address)))
        }
        if !endpoints.isEmpty, secret.count < Self.minimumSecretLength {
            throw WebhookConfigurationError(description: "webhooks need a signing secret of at least \(Self.minimumSecretLength) characters (GEOSERVE_WEBHOOK_SECRET or --webhook-secret-file)")
        }
        self.endpoints = endpoints
        self.secret = secret
        allowsLocal = allowingLocal
    }

    /// HMAC-SHA256 of the address under the installation's secret, in hex: 64 characters a
    /// receiver keeps as its own secret.
    static func endpointSecret(_ secret: String, address: String) -> String {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        mac.update(data: Data("geoserve webhook endpoint\u{1F}".utf8))
        mac.update(data: Data(address.utf8))
        return Data(mac.finalize()).hexString
    }

    /// None: events are marked done as they come.
    static let none = try! WebhookConfiguration(addresses: [], secret: "")

    /// The wait before the attempt after `failures` failed ones, with ±20 % jitter so that a
    /// receiver coming back is not met by every event at once.
    func retryDelay(afterFailures failures: Int) -> TimeInterval {
        let base = min(longestRetry, firstRetry * pow(2, Double(max(0, failures - 1))))
        return base * Double.random(in: 0.8...1.2)
    }
}

package struct WebhookConfigurationError: Error, CustomStringConvertible {
    package let description: String
}
