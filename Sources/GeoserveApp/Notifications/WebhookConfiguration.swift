import Crypto
import Foundation
import Support

/// Where status notifications go and the secret that signs them. Endpoints are named in the
/// store and the logs by a digest or their host, never by the whole address, which may carry a
/// token of the receiver's.
package struct WebhookConfiguration: Sendable {
    package struct Endpoint: Sendable, Hashable {
        let url: URL
        /// A digest of the address: what the store records deliveries under.
        let key: String
        /// The host, for logs.
        let host: String

        /// The address with any user, password or query masked (they may hold the receiver's
        /// token), for `geoserve config`.
        package var shown: String {
            guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "***" }
            if parts.user != nil || parts.password != nil { parts.user = "***"; parts.password = nil }
            if parts.query != nil { parts.query = "***" }
            return parts.string ?? "***"
        }
    }

    package let endpoints: [Endpoint]
    package let secret: String
    /// How long one delivery may take.
    var timeout: TimeInterval = 10
    /// Backoff after the n-th failure: 5 s doubling, at most an hour.
    var firstRetry: TimeInterval = 5
    var longestRetry: TimeInterval = 3600

    static let minimumSecretLength = 32

    /// Checks the addresses (absolute http or https) and the secret (32 characters or more).
    package init(addresses: [String], secret: String) throws(WebhookConfigurationError) {
        var endpoints: [Endpoint] = []
        for address in addresses where !address.isEmpty {
            guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host, !host.isEmpty else {
                throw WebhookConfigurationError(description: "webhook \"\(address)\" is not an absolute http or https address")
            }
            let key = SHA256.hash(data: Data(address.utf8)).prefix(16).hexString
            endpoints.append(Endpoint(url: url, key: key, host: host))
        }
        if !endpoints.isEmpty, secret.count < Self.minimumSecretLength {
            throw WebhookConfigurationError(description: "webhooks need a signing secret of at least \(Self.minimumSecretLength) characters (GEOSERVE_WEBHOOK_SECRET or --webhook-secret-file)")
        }
        self.endpoints = endpoints
        self.secret = secret
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
