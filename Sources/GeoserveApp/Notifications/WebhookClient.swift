import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One POST of a notification to one endpoint: delivered on a 2xx answer, failed otherwise
/// (the reason for the log and the outbox, without the body).
struct WebhookClient: Sendable {
    enum Outcome: Sendable, Equatable {
        case delivered
        case failed(String)
    }

    let session: URLSession

    init(timeout: TimeInterval) {
        let c = URLSessionConfiguration.ephemeral
        c.timeoutIntervalForRequest = timeout
        c.timeoutIntervalForResource = timeout
        c.httpCookieStorage = nil
        c.urlCache = nil
        session = URLSession(configuration: c)
    }

    func post(_ body: Data, to url: URL, eventID: String, signature: String) async -> Outcome {
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
            return (200..<300).contains(http.statusCode) ? .delivered : .failed("answered \(http.statusCode)")
        } catch {
            return .failed((error as NSError).localizedDescription)
        }
    }
}
