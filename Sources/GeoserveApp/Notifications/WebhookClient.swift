import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One POST of a notification to one endpoint: delivered on a 2xx answer, failed otherwise
/// (the reason for the log and the outbox, without the body). Redirects are not followed: a
/// receiver's 3xx would send the signed delivery somewhere nobody configured, so it is a failure.
struct WebhookClient: Sendable {
    enum Outcome: Sendable, Equatable {
        case delivered
        case failed(String)
    }

    let session: URLSession
    /// Whether a host that resolves to a loopback or link-local address may be posted to.
    let allowsLocal: Bool

    init(timeout: TimeInterval, allowsLocal: Bool) {
        let c = URLSessionConfiguration.ephemeral
        c.timeoutIntervalForRequest = timeout
        c.timeoutIntervalForResource = timeout
        c.httpCookieStorage = nil
        c.urlCache = nil
        session = URLSession(configuration: c, delegate: NoRedirects(), delegateQueue: nil)
        self.allowsLocal = allowsLocal
    }

    func post(_ body: Data, to url: URL, eventID: String, signature: String) async -> Outcome {
        guard let host = url.host else { return .failed("the address names no host (not sent)") }
        // Looked up once, checked, and connected to: a second lookup by the HTTP client could
        // answer with another address than the one checked (DNS rebinding delivered to loopback).
        let addresses = await LocalAddress.resolve(host: host)
        guard !addresses.isEmpty else { return .failed("\(host) does not resolve (not sent)") }
        if !allowsLocal, addresses.contains(where: { LocalAddress.isLocal(literal: $0) == true }) {
            return .failed("\(host) resolves to a loopback or link-local address (not sent)")
        }
        // Plain HTTP goes to the checked address with the name in `Host`. HTTPS keeps the name,
        // which its certificate is checked against: a service on another address cannot show a
        // certificate for the receiver's name.
        var outcome = Outcome.failed("not sent")
        for target in Self.targets(for: url, resolved: addresses) {
            var request = URLRequest(url: target.url)
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue(eventID, forHTTPHeaderField: "X-Geoserve-Event")
            request.setValue(signature, forHTTPHeaderField: WebhookSignature.header)
            request.setValue("geoserve/\(GeoserveVersion.current)", forHTTPHeaderField: "User-Agent")
            if let name = target.host { request.setValue(name, forHTTPHeaderField: "Host") }
            do {
                let (_, response) = try await session.data(for: request)
                guard let http = response as? HTTPURLResponse else { return .failed("no HTTP answer") }
                if (300..<400).contains(http.statusCode) { return .failed("answered \(http.statusCode), a redirect (not followed)") }
                return (200..<300).contains(http.statusCode) ? .delivered : .failed("answered \(http.statusCode)")
            } catch {
                // The next checked address when this one takes no connection (a name with an
                // IPv6 and an IPv4 address, a receiver listening on one of them).
                outcome = .failed((error as NSError).localizedDescription)
                guard (error as NSError).code == NSURLErrorCannotConnectToHost else { return outcome }
            }
        }
        return outcome
    }

    /// Where a delivery to `url` connects, in order, given the addresses its host resolved to:
    /// for plain HTTP to a name, each address with the name as `Host`; otherwise the URL itself.
    static func targets(for url: URL, resolved addresses: [String]) -> [(url: URL, host: String?)] {
        guard let host = url.host, url.scheme?.lowercased() == "http",
              LocalAddress.isLocal(literal: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) == nil else { return [(url, nil)] }
        let name = url.port.map { "\(host):\($0)" } ?? host
        return addresses.map { (pinned(url, to: $0), name) }
    }

    /// `url` with its host replaced by `address` (an IPv6 one in brackets).
    static func pinned(_ url: URL, to address: String) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        parts.host = address.contains(":") ? "[\(address)]" : address
        return parts.url ?? url
    }
}

/// Hands every redirect back as the answer instead of following it.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
