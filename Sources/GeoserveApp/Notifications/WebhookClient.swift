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
        if !allowsLocal, let host = url.host, await LocalAddress.resolvesLocal(host: host) {
            return .failed("\(host) resolves to a loopback or link-local address (not sent)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(eventID, forHTTPHeaderField: "X-Geoserve-Event")
        request.setValue(signature, forHTTPHeaderField: WebhookSignature.header)
        request.setValue("geoserve/\(GeoserveVersion.current)", forHTTPHeaderField: "User-Agent")
        do {
            let (_, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .failed("no HTTP answer") }
            if (300..<400).contains(http.statusCode) { return .failed("answered \(http.statusCode), a redirect (not followed)") }
            return (200..<300).contains(http.statusCode) ? .delivered : .failed("answered \(http.statusCode)")
        } catch {
            return .failed((error as NSError).localizedDescription)
        }
    }
}

/// Hands every redirect back as the answer instead of following it.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
