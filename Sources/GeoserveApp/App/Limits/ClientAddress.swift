import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Who a request comes from, for limits per address: the peer's IP, or — when the peer is a
/// proxy the operator trusts — the address that proxy appended last to `X-Forwarded-For`.
/// Only the last entry is used: earlier ones are whatever the client chose to send.
struct ClientAddress: Sendable {
    /// Peers whose `X-Forwarded-For` is believed: loopback by default, where a reverse proxy on
    /// the same machine connects from.
    let trustedProxies: Set<String>

    static let loopback: Set<String> = ["127.0.0.1", "::1", "::ffff:127.0.0.1"]

    func address(of request: Request, peer: SocketAddress?) -> String {
        let ip = peer?.ipAddress ?? "unknown"
        guard trustedProxies.contains(ip), let forwarded = request.headers[values: .xForwardedFor].last else { return ip }
        let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) ?? ""
        return last.isEmpty ? ip : String(last.prefix(64))
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
